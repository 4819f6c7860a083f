import { argv, exit, stdout } from 'node:process';

const HELP = `quanta — trading bot framework

Usage:
  quanta help            show this help
`;

const [command] = argv.slice(2);
if (command === undefined || command === 'help' || command === '--help' || command === '-h') {
  stdout.write(HELP);
  exit(0);
}
process.stderr.write(`quanta: unknown command ${JSON.stringify(command)}\n${HELP}`);
exit(2);
