/**
 * A least-recently-used cache bounded by the bytes of what it holds, not by
 * the number of entries: what the gateway keeps resident of a build stays
 * under a fixed budget whatever the size of the corpus. A Map keeps insertion
 * order, so a hit moves its entry to the end and eviction takes from the front.
 */
export interface Sized {
  /** Bytes this value keeps alive (its body). */
  readonly size: number
}

export class ByteLru<V extends Sized> {
  private readonly entries = new Map<string, V>()
  private bytes = 0

  /** `maxBytes` 0 keeps nothing. */
  constructor(readonly maxBytes: number) {}

  get(key: string): V | undefined {
    const value = this.entries.get(key)
    if (value === undefined) return undefined
    // Most recently used goes last.
    this.entries.delete(key)
    this.entries.set(key, value)
    return value
  }

  /** Keep `value` unless it alone is larger than a quarter of the budget (one file must not flush the rest). */
  set(key: string, value: V): void {
    const previous = this.entries.get(key)
    if (previous !== undefined) {
      this.entries.delete(key)
      this.bytes -= previous.size
    }
    if (value.size > this.maxBytes / 4) return
    this.entries.set(key, value)
    this.bytes += value.size
    for (const [oldest, old] of this.entries) {
      if (this.bytes <= this.maxBytes) break
      this.entries.delete(oldest)
      this.bytes -= old.size
    }
  }

  delete(key: string): void {
    const value = this.entries.get(key)
    if (value === undefined) return
    this.entries.delete(key)
    this.bytes -= value.size
  }

  get size(): number {
    return this.entries.size
  }

  get totalBytes(): number {
    return this.bytes
  }
}
