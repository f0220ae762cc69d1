/**
 * The bench's S3-compatible endpoint in its own process: s3rver (tests/helpers/s3.ts) with one
 * bucket `bench`, so the bucket's request handling and MD5s run on their own CPU time rather than
 * inside the process whose throughput and memory the bench measures. Prints `listening {port}`
 * (the line the bench's startProcess waits for) and serves until SIGTERM or SIGINT, then removes
 * its directory.
 */
import { startS3Server } from '../helpers/s3.ts';

const server = await startS3Server({ bucket: 'bench' });
console.log(`listening ${new URL(server.endpoint).port}`);
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.once(signal, () => {
    void server.close().finally(() => process.exit(0));
  });
}
