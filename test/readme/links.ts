import { existsSync, readFileSync, statSync } from 'node:fs'
import { dirname, relative, resolve, sep } from 'node:path'

/** A link of a Markdown document: where it is and what it points at. */
export interface MarkdownLink {
  /** 1-based line of the link in the document. */
  readonly line: number
  readonly target: string
}

const FENCE = /^ {0,3}(`{3,}|~{3,})/
const HEADING = /^ {0,3}#{1,6}[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*$/
const SCHEME = /^[a-z][a-z0-9+.-]*:/i
/** `[text](target)` or `![alt](target)`, the target optionally in `<…>` and followed by a title. */
const INLINE = /!?\[(?:[^\][]|\[[^\]]*\])*\]\(\s*(<[^>]*>|[^\s)]+)(?:\s+(?:"[^"]*"|'[^']*'))?\s*\)/g
const DEFINITION = /^ {0,3}\[[^\]]+\]:\s*(<[^>]*>|\S+)/
const HTML_ID = /<a\s[^>]*\b(?:id|name)="([^"]+)"/g

/** The lines of `markdown` outside fenced code blocks, with their 1-based numbers. */
function prose(markdown: string): { line: number; text: string }[] {
  const out: { line: number; text: string }[] = []
  let fence: string | undefined
  markdown.split(/\r?\n/).forEach((text, i) => {
    const marker = FENCE.exec(text)?.[1]
    if (fence) {
      // A fence closes on the same character, at least as many, and nothing else.
      if (marker && marker[0] === fence[0] && marker.length >= fence.length && text.trim() === marker) fence = undefined
      return
    }
    if (marker) fence = marker
    else out.push({ line: i + 1, text })
  })
  return out
}

/** `text` without its inline code spans, which hold no links. */
const withoutCode = (text: string): string => text.replace(/(`+)(?:(?!\1)[\s\S])*?\1/g, '')

/**
 * The anchor GitHub gives a heading: its text as rendered (link targets
 * dropped, code spans kept as their text), lower-cased, every character but
 * letters, digits, `_`, `-` and spaces dropped, then each space a `-`.
 */
export function slug(heading: string): string {
  const text = heading
    .replace(/!?\[((?:[^\][]|\[[^\]]*\])*)\]\([^)]*\)/g, '$1')
    .replace(/<[^>]+>/g, '')
  return text
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}_\- ]/gu, '')
    .replace(/ /g, '-')
}

/** Every anchor of `markdown`: each heading's slug (a repeated one gets `-1`, `-2`, …) and each HTML `id` or `name`. */
export function anchors(markdown: string): Set<string> {
  const found = new Set<string>()
  const seen = new Map<string, number>()
  for (const { text } of prose(markdown)) {
    const heading = HEADING.exec(text)?.[1]
    if (heading !== undefined) {
      const base = slug(heading)
      const count = seen.get(base) ?? 0
      seen.set(base, count + 1)
      found.add(count === 0 ? base : `${base}-${count}`)
    }
    for (const match of text.matchAll(HTML_ID)) found.add(match[1]!)
  }
  return found
}

/** Every link of `markdown` outside code: inline links, images and reference definitions. */
export function links(markdown: string): MarkdownLink[] {
  const found: MarkdownLink[] = []
  for (const { line, text } of prose(markdown)) {
    const plain = withoutCode(text)
    const definition = DEFINITION.exec(plain)?.[1]
    if (definition) found.push({ line, target: definition })
    for (const match of plain.matchAll(INLINE)) found.push({ line, target: match[1]! })
  }
  return found.map(({ line, target }) => ({ line, target: target.replace(/^<(.*)>$/, '$1') }))
}

/**
 * The links of the document `doc` (relative to `root`) that do not resolve,
 * each as `doc:line: target: why`. A relative link must name a file or a
 * folder that exists; its `#anchor` must be an anchor of that Markdown file
 * (of `doc` itself when the path is empty). Links with a scheme (`https:`,
 * `mailto:`) are not followed. Links under `generated` (the API reference,
 * written by `npm run docs`) are checked only when it has been generated.
 */
export function brokenLinks(root: string, doc: string, generated: readonly string[] = []): string[] {
  const file = resolve(root, doc)
  const broken: string[] = []
  for (const { line, target } of links(readFileSync(file, 'utf8'))) {
    if (SCHEME.test(target)) continue
    const why = (reason: string) => broken.push(`${doc}:${line}: ${target}: ${reason}`)
    const hash = target.indexOf('#')
    const path = decodeURIComponent(hash < 0 ? target : target.slice(0, hash))
    const anchor = hash < 0 ? undefined : decodeURIComponent(target.slice(hash + 1))
    if (path.startsWith('/')) {
      why('an absolute path; write it relative to the document')
      continue
    }
    const resolved = path ? resolve(dirname(file), path) : file
    const name = relative(root, resolved).split(sep).join('/')
    const underGenerated = generated.find((dir) => name === dir || name.startsWith(`${dir}/`))
    if (underGenerated && !existsSync(resolve(root, underGenerated))) continue
    if (!existsSync(resolved)) {
      why('no such file')
      continue
    }
    if (anchor === undefined) continue
    if (statSync(resolved).isDirectory() || !resolved.endsWith('.md')) {
      why('an anchor into something that is not a Markdown file')
      continue
    }
    if (!anchors(readFileSync(resolved, 'utf8')).has(anchor)) why(`no heading of ${name} has the anchor #${anchor}`)
  }
  return broken
}
