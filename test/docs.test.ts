import { readFileSync } from 'node:fs'
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { documents } from './readme/documents.js'
import { anchors, brokenLinks, links, slug } from './readme/links.js'
import { ROOT } from './readme/workspace.js'

// The README and the guides link to each other by path and #anchor; a
// renamed heading or a moved page must fail here, not on a reader's click.

/** Where `npm run docs` writes the API reference: links into it are checked once it has been generated. */
const GENERATED = ['docs/api']
/** Fewer links than this in all, and the extractor has lost its way: the check must not pass vacuously. */
const MIN_LINKS = 150

describe('GitHub anchors', () => {
  it.each([
    ['Quick start', 'quick-start'],
    ['`createClient(options)`', 'createclientoptions'],
    ['`responses$(client, body, options?)`', 'responsesclient-body-options'],
    ['Text, then video', 'text-then-video'],
    ['Simulator (`rxgate/sim`): the reference gateway', 'simulator-rxgatesim-the-reference-gateway'],
    ['Pull-based batches: `mapConcurrent`', 'pull-based-batches-mapconcurrent'],
    ['The [simulator](simulator.md) in a test', 'the-simulator-in-a-test'],
    ['snake_case · and → symbols', 'snake_case--and--symbols'],
    ['Größe und Ähnliches', 'größe-und-ähnliches'],
  ])('%s → #%s', (heading, anchor) => {
    expect(slug(heading)).toBe(anchor)
  })

  it('numbers a repeated heading, skips headings in code, and takes HTML ids', () => {
    const markdown = ['# Options', '## Options', '```md', '## Not a heading', '```', '### Options ##', '<a id="custom"></a>'].join('\n')
    expect([...anchors(markdown)]).toEqual(['options', 'options-1', 'options-2', 'custom'])
  })
})

describe('links', () => {
  it('finds inline links, images and definitions, but none in code', () => {
    const markdown = [
      'See [a](a.md#x) and ![b](<b c.png> "title").', // 1
      'Not `[c](c.md)`, nor:', // 2
      '```ts', // 3
      '[d](d.md)', // 4
      '```', // 5
      '[ref]: e.md', // 6
      '[nested [brackets]](f.md)', // 7
    ].join('\n')
    expect(links(markdown)).toEqual([
      { line: 1, target: 'a.md#x' },
      { line: 1, target: 'b c.png' },
      { line: 6, target: 'e.md' },
      { line: 7, target: 'f.md' },
    ])
  })

  describe('in a small repository', () => {
    let root: string
    beforeAll(async () => {
      root = await mkdtemp(join(tmpdir(), 'rxgate-links-'))
      await mkdir(join(root, 'docs'))
      await writeFile(join(root, 'LICENSE'), 'MIT\n')
      await writeFile(join(root, 'docs/guide.md'), '# Guide\n\n## Two words\n')
      await writeFile(
        join(root, 'README.md'),
        [
          '# Top', // 1
          '[ok](docs/guide.md#two-words) [ok](#top) [ok](LICENSE) [ok](docs) [ok](https://example.com/#x)', // 2
          '[missing](docs/nothing.md)', // 3
          '[bad anchor](docs/guide.md#two_words)', // 4
          '[bad here](#bottom)', // 5
          '[anchor into a file](LICENSE#x)', // 6
          '[absolute](/docs/guide.md)', // 7
          '[reference](docs/api/index.html) [reference, anchored](docs/api/index.html#x)', // 8
        ].join('\n'),
      )
    })
    afterAll(() => rm(root, { recursive: true, force: true }))

    it('reports each link that does not resolve, and why', () => {
      expect(brokenLinks(root, 'README.md', GENERATED)).toEqual([
        'README.md:3: docs/nothing.md: no such file',
        'README.md:4: docs/guide.md#two_words: no heading of docs/guide.md has the anchor #two_words',
        'README.md:5: #bottom: no heading of README.md has the anchor #bottom',
        'README.md:6: LICENSE#x: an anchor into something that is not a Markdown file',
        'README.md:7: /docs/guide.md: an absolute path; write it relative to the document',
      ])
    })

    it('checks links into the generated reference once it exists', async () => {
      await mkdir(join(root, 'docs/api'))
      expect(brokenLinks(root, 'README.md', GENERATED).slice(5)).toEqual(['README.md:8: docs/api/index.html: no such file', 'README.md:8: docs/api/index.html#x: no such file'])
    })
  })
})

describe('the documents', () => {
  const docs = documents()

  it(`hold links (at least ${MIN_LINKS} in all)`, () => {
    const count = docs.reduce((sum, doc) => sum + links(readFileSync(resolve(ROOT, doc), 'utf8')).length, 0)
    expect(count).toBeGreaterThanOrEqual(MIN_LINKS)
  })

  it.each(docs)('%s: every relative link and #anchor resolves', (doc) => {
    expect(brokenLinks(ROOT, doc, GENERATED)).toEqual([])
  })
})
