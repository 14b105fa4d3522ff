/**
 * Rendered board pictures kept in memory, least recently read dropped first: keyed by project, canvas, revision (and
 * run-state version), view and format, so a second read of the same revision costs nothing. A render in progress is
 * shared: two readers of the same key wait for one render.
 */
export class RenderCache<V> {
  private readonly entries = new Map<string, V>();
  private readonly pending = new Map<string, Promise<V>>();

  constructor(private readonly maxEntries = 32) {}

  async get(key: string, make: () => Promise<V>): Promise<V> {
    const known = this.entries.get(key);
    if (known !== undefined) {
      this.entries.delete(key);
      this.entries.set(key, known);
      return known;
    }
    const running = this.pending.get(key);
    if (running) return running;
    const work = make()
      .then((value) => {
        this.entries.set(key, value);
        while (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
        return value;
      })
      .finally(() => this.pending.delete(key));
    this.pending.set(key, work);
    return work;
  }

  get size(): number {
    return this.entries.size;
  }
}
