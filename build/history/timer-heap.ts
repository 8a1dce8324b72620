/**
 * The releases and expiries still to come in a replay, soonest first: a
 * binary min-heap of (time, item), each pair held once. An item whose files
 * changed since its timer was set is simply judged again when it fires
 * (nothing changes then).
 */
export class TimerHeap {
  private readonly items: { time: number; item: string }[] = []
  private readonly pending = new Set<string>()

  push(time: number, item: string): void {
    const id = `${time}\0${item}`
    if (this.pending.has(id)) return
    this.pending.add(id)
    const items = this.items
    items.push({ time, item })
    let i = items.length - 1
    while (i > 0) {
      const parent = (i - 1) >> 1
      if (items[parent]!.time <= items[i]!.time) break
      ;[items[parent], items[i]] = [items[i]!, items[parent]!]
      i = parent
    }
  }

  peek(): number | undefined {
    return this.items[0]?.time
  }

  /** Every item with a timer at `time` (the soonest). */
  popAll(time: number): Set<string> {
    const out = new Set<string>()
    while (this.items.length && this.items[0]!.time === time) {
      const { item } = this.pop()
      this.pending.delete(`${time}\0${item}`)
      out.add(item)
    }
    return out
  }

  private pop(): { time: number; item: string } {
    const items = this.items
    const top = items[0]!
    const last = items.pop()!
    if (items.length) {
      items[0] = last
      let i = 0
      for (;;) {
        const [l, r] = [2 * i + 1, 2 * i + 2]
        let least = i
        if (l < items.length && items[l]!.time < items[least]!.time) least = l
        if (r < items.length && items[r]!.time < items[least]!.time) least = r
        if (least === i) break
        ;[items[least], items[i]] = [items[i]!, items[least]!]
        i = least
      }
    }
    return top
  }
}
