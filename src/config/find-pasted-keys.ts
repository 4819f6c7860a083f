import { isAlias, isMap, isScalar, isSeq, type Document } from 'yaml';
import { formatKeyPath, type ConfigProblem } from './config-problems.ts';
import { looksSecret } from './describe-value.ts';
import { HIDDEN_KEY } from './hide-secrets.ts';

// An account or contract address is public and 40 hex digits long (the signing contracts are
// written so); anything else holding 32+ hex digits is treated as a secret.
const ADDRESS = /^0x[0-9a-fA-F]{40}$/;

const WALLET_HINT =
  'a key must go into an environment variable, and wallet.privateKeyEnv holds that ' +
  'variable’s NAME (default QUANTA_WALLET_KEY)';
const ELSEWHERE_HINT =
  'secrets go into environment variables, never into the config: the wallet key’s variable ' +
  'is named by wallet.privateKeyEnv, a webhook URL’s by notify[].urlEnv, the control token’s ' +
  'by control.tokenEnv';

/**
 * Finds secrets pasted anywhere in the config (issue 25: a wallet key pasted as a market symbol,
 * a strategy name, a module path, a state.dir component or a kill-switch file name passed every
 * check and was then printed whole, in the start banner, a log line or an error): values and
 * mapping keys holding a secret-shaped hex run (32+ digits, any case, prefix or blanks), except
 * a plain `0x` address. Refusing them here, with the key path and without the value, means no
 * later message can echo them. It reads each scalar's source text, not its value: YAML turns an
 * unquoted `0x…` into a (rounded) number, and the key must still be caught. Give it the
 * document from `hideSecrets`, so that a key path holding a secret-shaped key is not shown.
 *
 * @returns one problem per pasted key, with its key path (for dropping other reports about it).
 */
export function findPastedKeys(doc: Document): { path: PropertyKey[]; problem: ConfigProblem }[] {
  const found: { path: PropertyKey[]; problem: ConfigProblem }[] = [];
  const report = (path: PropertyKey[], offset: number, what: 'value' | 'key'): void => {
    const hint = path[0] === 'wallet' ? WALLET_HINT : ELSEWHERE_HINT;
    found.push({
      path,
      problem: {
        offset,
        text: `${formatKeyPath(path)}: ${what === 'key' ? 'a key that looks' : 'looks'} like a private key pasted into the config (${what} not shown); ${hint}`,
      },
    });
  };
  const secretSource = (node: unknown): boolean => {
    if (!isScalar(node)) return false;
    const source = node.source ?? (typeof node.value === 'string' ? node.value : '');
    return looksSecret(source) && !ADDRESS.test(source.trim());
  };
  const visit = (node: unknown, path: PropertyKey[]): void => {
    if (isAlias(node)) return;
    if (isScalar(node)) {
      if (secretSource(node)) report(path, node.range?.[0] ?? 0, 'value');
    } else if (isMap(node)) {
      for (const pair of node.items) {
        const key = isScalar(pair.key) ? pair.key.value : pair.key;
        const step = String(key);
        // hideSecrets already replaced a secret-shaped key with HIDDEN_KEY.
        if (step === HIDDEN_KEY || secretSource(pair.key)) {
          const offset = isScalar(pair.key) ? (pair.key.range?.[0] ?? 0) : 0;
          report([...path, HIDDEN_KEY], offset, 'key');
          continue;
        }
        visit(pair.value, [...path, step]);
      }
    } else if (isSeq(node)) {
      node.items.forEach((item, index) => visit(item, [...path, index]));
    }
  };
  visit(doc.contents, []);
  return found;
}
