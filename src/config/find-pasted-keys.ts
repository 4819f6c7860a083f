import { isAlias, isMap, isScalar, isSeq, type Document } from 'yaml';
import { formatKeyPath, type ConfigProblem } from './config-problems.ts';
import { looksSecret } from './describe-value.ts';

/**
 * Finds private keys pasted anywhere under `wallet:`: values holding a secret-shaped hex run (32+
 * digits, any case, prefix or blanks). It reads each scalar's source text, not its value: YAML
 * turns an unquoted `0x…` into a (rounded) number, and the key must still be caught. Each
 * problem says where the key must go instead and never shows it. Give it the document from
 * `hideSecrets`, so that a key path holding a secret-shaped key is not shown either.
 *
 * @returns one problem per pasted key, with its key path (for dropping other reports about it).
 */
export function findPastedKeys(doc: Document): { path: PropertyKey[]; problem: ConfigProblem }[] {
  const found: { path: PropertyKey[]; problem: ConfigProblem }[] = [];
  const visit = (node: unknown, path: PropertyKey[]): void => {
    if (isAlias(node)) return;
    if (isScalar(node)) {
      const source = node.source ?? (typeof node.value === 'string' ? node.value : '');
      if (looksSecret(source)) {
        found.push({
          path,
          problem: {
            offset: node.range?.[0] ?? 0,
            text:
              `${formatKeyPath(path)}: looks like a private key pasted into the config (value not shown); ` +
              'a key must go into an environment variable, and wallet.privateKeyEnv holds that ' +
              'variable’s NAME (default QUANTA_WALLET_KEY)',
          },
        });
      }
    } else if (isMap(node)) {
      for (const pair of node.items) {
        const key = isScalar(pair.key) ? pair.key.value : pair.key;
        visit(pair.value, [...path, String(key)]);
      }
    } else if (isSeq(node)) {
      node.items.forEach((item, index) => visit(item, [...path, index]));
    }
  };
  const wallet = isMap(doc.contents) ? doc.contents.get('wallet', true) : undefined;
  visit(wallet, ['wallet']);
  return found;
}
