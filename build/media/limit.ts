/**
 * At most `size` tasks at a time, the rest queued in order: what bounds the
 * build's memory when it processes images (each holds one decoded image).
 */
export class Limit {
  private active = 0
  private readonly waiting: (() => void)[] = []

  constructor(private readonly size: number) {}

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.active >= this.size) await new Promise<void>((resolve) => this.waiting.push(resolve))
    this.active++
    try {
      return await task()
    } finally {
      this.active--
      this.waiting.shift()?.()
    }
  }
}
