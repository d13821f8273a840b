/**
 * The baseline of bench:http: a bare express server answering every path with a precomputed JSON body of a
 * given size (BODY_BYTES), so that the service's figures can be read as a ratio on a noisy machine.
 */
import express from 'express';

const size = Number(process.env.BODY_BYTES ?? '1000');
const body = JSON.stringify({ data: 'x'.repeat(Math.max(0, size - 12)) });
const app = express();
app.disable('x-powered-by');
app.use((_req, res) => {
  res.type('application/json').send(body);
});
const server = app.listen(0, '127.0.0.1', () => {
  const address = server.address();
  process.stdout.write(`listening ${typeof address === 'object' && address ? address.port : 0}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
