// `npm test`'s static checks: the type check, eslint and prettier (the `typecheck` and `lint`
// scripts), started together. Run one after the other, each kept one core of a 2-core machine
// busy while the other idled. Each one's output is held and printed whole when it ends, in the
// order listed, so nothing interleaves; the exit code is non-zero when any of them failed.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';

/** [name, program in node_modules/.bin, arguments]: the `typecheck` and `lint` npm scripts. */
const CHECKS = [
  ['typecheck', 'tsc', ['--noEmit']],
  ['eslint', 'eslint', ['.']],
  ['prettier', 'prettier', ['--check', '.']],
];

function runCheck([name, program, args]) {
  const startedAt = performance.now();
  const child = spawn(join('node_modules', '.bin', program), args, {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output = [];
  child.stdout.on('data', (chunk) => output.push(chunk));
  child.stderr.on('data', (chunk) => output.push(chunk));
  return new Promise((done) => {
    child.once('error', (error) => done({ name, code: 1, output: [Buffer.from(`${error}\n`)] }));
    child.once('close', (code, signal) =>
      done({
        name,
        code: code ?? 1,
        signal,
        seconds: (performance.now() - startedAt) / 1000,
        output,
      }),
    );
  });
}

const results = await Promise.all(CHECKS.map(runCheck));
for (const { name, code, signal, seconds, output } of results) {
  const text = Buffer.concat(output).toString('utf8');
  const status = code === 0 ? 'ok' : signal ? `killed by ${signal}` : `failed (exit ${code})`;
  process.stdout.write(
    `${name}: ${status}${seconds === undefined ? '' : ` in ${seconds.toFixed(1)} s`}\n`,
  );
  if (code !== 0 || text.trim() !== '')
    process.stdout.write(text.endsWith('\n') || text === '' ? text : `${text}\n`);
}
process.exitCode = results.some(({ code }) => code !== 0) ? 1 : 0;
