// A throwaway OTLP/HTTP receiver for `npm run bench` with tracing on: prints its URL, counts spans.
import { startOtlpReceiver } from '../test/helpers/otlp-receiver.js';

const receiver = await startOtlpReceiver();
console.log(receiver.url);
setInterval(() => {
  receiver.spans.length = 0; // keep the memory flat: only the count matters here
}, 10_000).unref();
process.on('SIGTERM', () => void receiver.stop().then(() => process.exit(0)));
