// A small least-recently-used map: a Map keeps insertion order, so the first key is the oldest.
export class Lru<K, V> {
  private readonly map = new Map<K, V>();
  /** the most recently used key: using it again moves nothing (the common case of one hot key) */
  private newest: K | undefined;
  constructor(private readonly max: number) {}

  get(key: K): V | undefined {
    const value = this.map.get(key);
    if (value !== undefined && key !== this.newest) {
      this.map.delete(key);
      this.map.set(key, value);
      this.newest = key;
    }
    return value;
  }

  set(key: K, value: V): void {
    this.map.delete(key);
    this.map.set(key, value);
    this.newest = key;
    if (this.map.size > this.max) this.map.delete(this.map.keys().next().value as K);
  }

  get size() {
    return this.map.size;
  }
}
