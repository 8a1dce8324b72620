import { describe, expect, it } from 'vitest'
import { escapeRegExp, templateSource } from '../../contract/regexp.ts'

const METACHARACTERS = ['.', '*', '+', '?', '^', '$', '{', '}', '(', ')', '|', '[', ']', '\\'].join('')

describe('escapeRegExp', () => {
  it('makes a pattern that matches exactly its text, with and without the u flag', () => {
    const literal = `a${METACHARACTERS}b`
    for (const flags of ['', 'u', 'iu']) {
      const pattern = new RegExp(`^${escapeRegExp(literal)}$`, flags)
      expect(pattern.test(literal), flags).toBe(true)
      expect(pattern.test(literal.replace('.', 'x')), flags).toBe(false)
    }
  })
})

describe('templateSource', () => {
  it("stands each {parameter} for one or more characters other than '/', the rest literal", () => {
    const pattern = new RegExp(`^${templateSource('/feeds/{collection}.xml')}$`)
    expect(pattern.test('/feeds/blog-posts.xml')).toBe(true)
    expect(pattern.test('/feeds/blog-postsxxml')).toBe(false)
    expect(pattern.test('/feeds/a/b.xml')).toBe(false)
    expect(pattern.test('/feeds/.xml')).toBe(false)
  })
})
