/**
 * Hostile bodies on both render paths: the markdown-it path and the
 * reference path (raw HTML parsed, then sanitised, on both). No script,
 * frame, style, object, `javascript:`/`vbscript:`/`data:` URL or event
 * handler survives, and the text of a refused link stays.
 */
import { describe, expect, it } from 'vitest'
import { renderBody } from '../../../build/pipeline/markdown.ts'
import { renderFast } from '../../../build/pipeline/markdown-fast.ts'
import { renderReference } from '../../../build/pipeline/markdown-reference.ts'

/** Bodies without raw HTML: markdown-it must render them itself. */
const MARKDOWN_ONLY = [
  '[click](javascript:alert(1)) [upper](JAVASCRIPT:alert(1)) [mixed](JaVaScRiPt:alert(1))',
  '[vb](vbscript:msgbox(1)) [data](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)',
  '[entity](javascript&#58;alert(1)) [hex](&#x6A;avascript:alert(1)) [escaped](javascript\\:alert(1))',
  '[spaced](<javascript:alert(1)>) [tab](java\tscript:alert(1)) [newline](java%0Ascript:alert(1))',
  '![img](javascript:alert(1)) ![data img](data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9YWxlcnQoMSk+) ![vb](vbscript:x)',
  '<javascript:alert(1)> <vbscript:alert(1)> <data:text/html,alert(1)> <DATA:text/html,x>',
  '[ref][bad] and ![img ref][badimg]\n\n[bad]: javascript:alert(1)\n[badimg]: data:text/html,x\n',
  '[title](https://ok.example "\\" onmouseover=\\"alert(1)") ![t](https://ok.example/i.png "\\" onerror=\\"alert(1)")',
  '```js" onclick="alert(1)\ncode\n```\n\n`<script>alert(1)</script>` and \\<script>alert(1)\\</script>',
  '[x](https://ok.example/" onclick="alert(1)) [y](https://ok.example/\'onclick=\'alert(1))',
]

/** Bodies with raw HTML: parsed, then sanitised, on the markdown-it path as on the reference path. */
const RAW_HTML = [
  '<script>alert(1)</script>\n\n<iframe src="https://evil.example"></iframe>\n\n<style>body{display:none}</style>',
  '<object data="x.swf"></object><embed src="x.swf"><applet code="x"></applet>',
  '<img src="x" onerror="alert(1)"> <a href="javascript:alert(1)" onclick="x()">a</a> <div onmouseover="x()" style="color:red">d</div>',
  '<a href="&#106;avascript:alert(1)">entity</a> <a href="jav&#x09;ascript:alert(1)">tab</a> <a href=" javascript:alert(1)">space</a>',
  '<svg onload="alert(1)"><script>alert(1)</script></svg> <math><mi xlink:href="javascript:alert(1)">m</mi></math>',
  '<scr<script>ipt>alert(1)</script> <<script>script>alert(1)</script> <img src=x onerror=alert(1)//',
  '<details open ontoggle="alert(1)"><summary>s</summary>x</details> <form action="javascript:alert(1)"><button>b</button></form>',
  'Inline <b onclick="x()">bold</b> and <span style="x">span</span> and <!-- comment --> <![CDATA[x]]>',
  '<a href="data:text/html,<script>alert(1)</script>">d</a> <img src="data:image/png;base64,AAAA"> <a href="vbscript:x">v</a>',
  '<p>unclosed <em>tags <a href="https://ok.example">ok',
]

const FORBIDDEN_TAGS = new Set([
  'script',
  'iframe',
  'frame',
  'style',
  'object',
  'embed',
  'applet',
  'svg',
  'math',
  'form',
  'button',
  'link',
  'meta',
  'base',
])
const FORBIDDEN_ATTRIBUTE = /^(?:on[a-z]+|style|formaction|xlink:href)$/i
const URL_ATTRIBUTE = /^(?:href|src|action|cite|longdesc)$/i
const DANGEROUS_URL = /^\s*(?:javascript|vbscript|data):/i

/** Every tag of the output: allowed name, no handler or style attribute, no dangerous URL (escaped text may mention them). */
function assertSafe(html: string, body: string): void {
  const where = `in the HTML of ${JSON.stringify(body)}: ${html}`
  for (const [tag, name, attributes] of html.matchAll(/<\/?([a-z][\w-]*)((?:\s+[^\s"'>/=]+(?:="[^"]*")?)*)\s*\/?>/gi)) {
    expect(FORBIDDEN_TAGS.has(name!.toLowerCase()), `${tag} ${where}`).toBe(false)
    for (const [, attribute, value = ''] of attributes!.matchAll(/\s+([^\s"'>/=]+)(?:="([^"]*)")?/g)) {
      expect(attribute, `${tag} ${where}`).not.toMatch(FORBIDDEN_ATTRIBUTE)
      const decoded = value.replace(/&#x([\da-f]+);?/gi, (_, hex: string) => String.fromCodePoint(parseInt(hex, 16)))
      if (URL_ATTRIBUTE.test(attribute!)) expect(decoded, `${tag} ${where}`).not.toMatch(DANGEROUS_URL)
    }
  }
  expect(html, where).not.toMatch(/<script/i)
}

describe('sanitised HTML on every render path', () => {
  it('the markdown-it path renders hostile Markdown without dangerous URLs or attributes', () => {
    for (const body of MARKDOWN_ONLY) {
      const fast = renderFast(body)
      expect(fast, `${JSON.stringify(body)} takes the markdown-it path`).toBeDefined()
      assertSafe(fast!.rendered!.html, body)
    }
  })

  it('both paths parse raw HTML and sanitise it, to the same bytes', () => {
    for (const body of RAW_HTML) {
      const fast = renderFast(body)
      expect(fast, `${JSON.stringify(body)} takes the markdown-it path`).toBeDefined()
      assertSafe(fast!.rendered!.html, body)
      const reference = renderReference(body).rendered!
      assertSafe(reference.html, body)
      expect(fast!.rendered, JSON.stringify(body)).toEqual(reference)
    }
  })

  it('drops a refused URL but keeps the link text, as the sanitiser does', () => {
    const { html, text } = renderBody('[click me](javascript:alert(1)) and [fine](https://ok.example)').rendered!
    expect(html).toBe('<p><a>click me</a> and <a href="https://ok.example">fine</a></p>')
    expect(text).toBe('click me and fine')
  })
})
