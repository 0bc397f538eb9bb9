// The DSL's zod schemas run here in the browser (parseProcess, validateProcess): without JIT. On its
// first parse zod probes whether it may compile code (`Function('')`); the console's
// Content-Security-Policy has no 'unsafe-eval', so the probe was refused and reported as a
// violation each time the designer opened (docs/console.md "Content-Security-Policy"). Jitless
// parsing is what zod fell back to anyway: same results, no eval, no report.
import { config } from 'zod';

config({ jitless: true });
