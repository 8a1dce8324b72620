/**
 * The baseline of the images row: sharp alone on the same files, one call
 * per output the build wrote (read, orient, resize, encode with the build's
 * settings, write), as many at a time as there are cores. Run as its own
 * process, like the build: `tsx bench/peers/sharp/baseline.ts <plan.json> <out dir>`.
 */
import { readFile } from 'node:fs/promises'
import { availableParallelism } from 'node:os'
import { join } from 'node:path'
import sharp from 'sharp'
import { ENCODERS } from '../../../build/media/recipes.ts'
import type { ImageFormat } from '../../../contract/media.ts'

export interface PlannedOutput {
  input: string
  format: ImageFormat
  width: number
}

const [planFile, outDir] = process.argv.slice(2) as [string, string]
const plan = JSON.parse(await readFile(planFile, 'utf8')) as PlannedOutput[]
let next = 0
const worker = async () => {
  while (next < plan.length) {
    const i = next++
    const { input, format, width } = plan[i]!
    await sharp(input)
      .autoOrient()
      .resize({ width, withoutEnlargement: true })
      .toFormat(format, ENCODERS[format])
      .toFile(join(outDir, `${i}.${format}`))
  }
}
await Promise.all(Array.from({ length: availableParallelism() }, worker))
console.log(`${plan.length} files`)
