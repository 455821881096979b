// The spawner's child (infra/spawner.ts): runs each program it is sent and sends back what it
// printed. Plain JavaScript, started with bare `node`, so it stays small and its forks cheap.
import { execFile } from 'node:child_process';

process.on('message', (m) => {
  execFile(m.file, m.args, { ...m.options, encoding: 'buffer' }, (err, stdout, stderr) => {
    const error = err
      ? { message: err.message, code: err.code ?? null, signal: err.signal ?? null, killed: !!err.killed }
      : null;
    process.send?.({ id: m.id, error, stdout, stderr });
  });
});
// The parent gone (ended or killed), there is no one to answer.
process.on('disconnect', () => process.exit(0));
