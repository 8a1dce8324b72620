/**
 * Fair turns over many endpoints: at most `concurrency` turns run at once,
 * each does a bounded share of its endpoint's work and says whether more is
 * left, and an endpoint with more goes to the back of the line. So an
 * endpoint that answers slowly holds one place, not the others' whole pass,
 * and one with a long backlog waits its turn again behind the rest instead
 * of sending it all first. Within an endpoint, turns never overlap: its
 * messages keep their order.
 *
 * A turn that throws is not run again; the first error is thrown once every
 * other turn has ended, so one endpoint's failure stops no other's delivery.
 */
export async function inTurns<T>(
  items: readonly T[],
  concurrency: number,
  turn: (item: T) => Promise<boolean>,
): Promise<void> {
  const line = [...items]
  let failure: { error: unknown } | undefined
  const worker = async () => {
    for (let item = line.shift(); item !== undefined; item = line.shift()) {
      try {
        if (await turn(item)) line.push(item)
      } catch (error) {
        failure ??= { error }
      }
    }
  }
  await Promise.all(Array.from({ length: Math.max(1, Math.min(concurrency, line.length)) }, worker))
  if (failure) throw failure.error
}
