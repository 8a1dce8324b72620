// One of several processes appending to one record of a files store at once (store-update.test.ts):
// node --import tsx store-writer.mjs <folder> <key> <name> <count>
import { openFileStore } from '../../../gateway/auth/store/file-store.ts'

const [dir, key, name, count] = process.argv.slice(2)
const store = openFileStore(dir)
for (let i = 0; i < Number(count); i++) await store.update(key, (current) => [...(current ?? []), `${name}-${i}`])
