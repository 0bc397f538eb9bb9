// Builds the Go tools the tests need that a fresh machine lacks (SeaweedFS, the attachment tests'
// S3 server) while `npm test` typechecks and lints: those steps use one core, the Go build the other.
import { ensureWeed } from '../test/helpers/seaweedfs.js';

const started = Date.now();
try {
  const bin = await ensureWeed();
  console.log(`prebuild: ${bin} ready after ${Math.round((Date.now() - started) / 1000)} s`);
} catch (err) {
  // The tests that need it build it again and fail with the reason.
  console.error(`prebuild: SeaweedFS could not be built: ${(err as Error).message.split('\n')[0]}`);
}
