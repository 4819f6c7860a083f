import { isAlias, isMap, isScalar, isSeq, type Document, type Node } from 'yaml';

/** Where a key path lands in a parsed YAML document, as source offsets. */
export interface NodeLocation {
  /** Offset of the value at the path, or of its key when the value is empty. */
  readonly value?: number;
  /** Offset of the key at the path's last step, when that step is a mapping key. */
  readonly key?: number;
  /** Offset of the deepest mapping or list that exists along the path. */
  readonly parent: number;
}

/**
 * Walks `path` through `doc` and reports the offsets an error about it should point at. Aliases
 * are followed, so an error inside an anchored block points at the anchor's definition.
 */
export function locateNode(doc: Document, path: readonly PropertyKey[]): NodeLocation {
  let current: unknown = doc.contents;
  let parent = startOf(current) ?? 0;
  let key: number | undefined;
  for (const step of path) {
    current = resolve(doc, current);
    if (isMap(current)) {
      parent = startOf(current) ?? parent;
      const pair = current.items.find(
        (item) => String(isScalar(item.key) ? item.key.value : item.key) === String(step),
      );
      if (pair === undefined) return { parent };
      key = startOf(pair.key);
      current = pair.value;
    } else if (isSeq(current) && typeof step === 'number') {
      parent = startOf(current) ?? parent;
      key = undefined;
      current = current.items[step];
      if (current === undefined) return { parent };
    } else {
      return { parent };
    }
  }
  const valueStart = startOf(resolve(doc, current), true);
  return { value: valueStart ?? key ?? parent, ...(key === undefined ? {} : { key }), parent };
}

function resolve(doc: Document, node: unknown): unknown {
  return isAlias(node) ? node.resolve(doc) : node;
}

// An empty value (`key:` with nothing after it) has a zero-length range; pointing at it would
// land past the colon, so the caller falls back to the key.
function startOf(node: unknown, nonEmpty = false): number | undefined {
  const range = (node as Partial<Node> | null | undefined)?.range;
  if (range === undefined || range === null) return undefined;
  if (nonEmpty && range[1] === range[0]) return undefined;
  return range[0];
}

/**
 * The key path of the mapping key that starts at `offset` (yaml's duplicate-key error points
 * there), or undefined when no key starts there.
 */
export function keyPathAt(doc: Document, offset: number): PropertyKey[] | undefined {
  const visit = (node: unknown, path: PropertyKey[]): PropertyKey[] | undefined => {
    if (isMap(node)) {
      for (const pair of node.items) {
        const step = String(isScalar(pair.key) ? pair.key.value : pair.key);
        if (startOf(pair.key) === offset) return [...path, step];
        const found = visit(pair.value, [...path, step]);
        if (found !== undefined) return found;
      }
    } else if (isSeq(node)) {
      for (const [index, item] of node.items.entries()) {
        const found = visit(item, [...path, index]);
        if (found !== undefined) return found;
      }
    }
    return undefined;
  };
  return visit(doc.contents, []);
}
