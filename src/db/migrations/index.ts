import { Migration20261121000001Directory } from './Migration20261121000001Directory.js';

/** Every migration, in order. Listed explicitly so the same list runs from TypeScript and from dist/. */
export const migrationsList = [
  { name: 'Migration20261121000001Directory', class: Migration20261121000001Directory },
];
