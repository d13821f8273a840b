const objectIds = new WeakMap<object, number>();
let lastObjectId = 0;

/**
 * A number naming an object for as long as it lives (the same object, the same number; never reused), for cache
 * keys that must tell objects apart by identity: catalog entries, liquidity graphs, route finders.
 */
export function objectId(value: object): number {
  let id = objectIds.get(value);
  if (id === undefined) objectIds.set(value, (id = ++lastObjectId));
  return id;
}
