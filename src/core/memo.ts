/**
 * The two kinds of memo the core uses, so that every cache is either bounded or tied to the object it
 * describes, and is declared where it is used:
 *
 * - `BoundedMemo`: the answers of a pure function for the keys asked most recently (lru-cache), for keys that
 *   belong to no object (an address text, a tick); optionally bounded by a size per entry as well as by count.
 * - `ObjectMemo`: a value derived from an object, held as long as the object lives (a WeakMap), for facts of
 *   read-only objects (a pool's float model, a token's USD price, a graph's index).
 *
 * Neither is for values that can change: a memo answers from what it computed first.
 */
import { LRUCache } from 'lru-cache';

/** lru-cache holds no `undefined`: a function's undefined answer is kept as this. */
const UNDEFINED = Symbol('undefined');

export interface BoundedMemoOptions<K, V> {
  /** The most entries kept (the least recently used go first). */
  readonly max: number;
  /** With `sizeOf`: the most the entries' sizes may add up to. */
  readonly maxSize?: number;
  /** The size of an entry (at least 1), when entries differ much in the memory they hold. */
  readonly sizeOf?: (value: V, key: K) => number;
}

export class BoundedMemo<K extends NonNullable<unknown>, V> {
  private readonly cache: LRUCache<K, NonNullable<unknown>>;

  constructor(options: BoundedMemoOptions<K, V>) {
    const { max, maxSize, sizeOf } = options;
    this.cache = new LRUCache<K, NonNullable<unknown>>(
      sizeOf && maxSize !== undefined
        ? { max, maxSize, sizeCalculation: (value, key) => Math.max(1, sizeOf(value === UNDEFINED ? (undefined as V) : (value as V), key)) }
        : { max },
    );
  }

  /** The answer for `key`: remembered, or computed by `compute` and remembered (a throw is not). */
  get(key: K, compute: (key: K) => V): V {
    const known = this.cache.get(key);
    if (known !== undefined) return (known === UNDEFINED ? undefined : known) as V;
    const value = compute(key);
    this.cache.set(key, value === undefined ? UNDEFINED : (value as NonNullable<unknown>));
    return value;
  }

  /** Entries held and, with `sizeOf`, their total size. */
  get size(): { readonly entries: number; readonly total: number } {
    return { entries: this.cache.size, total: this.cache.calculatedSize ?? this.cache.size };
  }
}

export class ObjectMemo<K extends object, V> {
  private readonly values = new WeakMap<K, V>();

  /** The value derived from `key`: remembered, or computed by `compute` and remembered (a throw is not). */
  get(key: K, compute: (key: K) => V): V {
    let value = this.values.get(key);
    if (value === undefined && !this.values.has(key)) {
      value = compute(key);
      this.values.set(key, value);
    }
    return value as V;
  }
}
