import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { main } from '../../src/cli/main.js'
import { createProgress } from '../../src/cli/progress.js'
import { terminalText } from '../../src/cli/terminalText.js'
import { urlLines } from '../../src/cli/taskView.js'
import { ATTACK, FAILED_TASK, FORGED, SPLIT_URL, startHostileGateway, STREAMED } from './hostileGateway.js'

/** What a terminal acts on: C0 controls but tab and line feed, DEL, C1 controls, bidi overrides and isolates. */
const ACTED_ON = /[\0-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]/

let gateway: Awaited<ReturnType<typeof startHostileGateway>>
beforeAll(async () => {
  gateway = await startHostileGateway()
})
afterAll(() => gateway.close())

/** Runs the CLI in this process against the hostile gateway, stdout a terminal or not, capturing what it prints. */
async function run(args: string[], { tty }: { tty: boolean }): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = ''
  let stderr = ''
  const had = Object.getOwnPropertyDescriptor(process.stdout, 'isTTY')
  Object.defineProperty(process.stdout, 'isTTY', { value: tty, configurable: true, writable: true })
  const out = vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => ((stdout += String(chunk)), true))
  const err = vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => ((stderr += String(chunk)), true))
  try {
    const code = await main(args, { GATEWAY_BASE_URL: gateway.url, GATEWAY_API_KEY: 'sk-test-0123456789abcdef' })
    return { code, stdout, stderr }
  } finally {
    out.mockRestore()
    err.mockRestore()
    if (had) Object.defineProperty(process.stdout, 'isTTY', had)
    else delete (process.stdout as { isTTY?: boolean }).isTTY
  }
}

describe('terminalText', () => {
  it.for(Object.entries(ATTACK))('%s: nothing a terminal acts on is left; every character is still shown', ([, attack]) => {
    const shown = terminalText(`a${attack}b`)
    expect(shown).not.toMatch(ACTED_ON)
    expect(JSON.parse(`"${shown.replace(/"/g, '\\"')}"`)).toBe(`a${attack}b`.replace(/\r\n/g, '\n'))
  })

  it('keeps line feeds, tabs and \\r\\n line ends (as \\n); shows a carriage return alone', () => {
    expect(terminalText('a\tb\r\nc\nd\re')).toBe('a\tb\nc\nd\\u000de')
  })

  it('oneLine: line breaks, with the spaces around them, become one space', () => {
    expect(terminalText(`Bad model \n${FORGED}\r\nx`, { oneLine: true })).toBe(`Bad model ${FORGED} x`)
  })
})

describe('rxgate CLI output, against a gateway whose words attack the terminal', () => {
  it('respond --stream to a terminal: escape sequences are shown, not run; the words arrive', async () => {
    const { code, stdout } = await run(['respond', 'hi', '--stream'], { tty: true })
    expect(code).toBe(0)
    expect(stdout).not.toMatch(ACTED_ON)
    expect(stdout).toContain('\\u001b]52;c;cm0gLXJmIH4=\\u0007')
    expect(stdout).toMatch(/^Hello .*rm -rf ~\\u000d\\u001b\[2Kls .*\nbye\n$/s)
  })

  it('respond --stream piped (stdout not a terminal): the model\'s text exactly as it came', async () => {
    const { code, stdout } = await run(['respond', 'hi', '--stream'], { tty: false })
    expect(code).toBe(0)
    expect(stdout).toBe(`${STREAMED}\n`)
  })

  it('an error whose message holds escapes and a line break: one line on stderr, nothing a terminal acts on', async () => {
    const { code, stderr } = await run(['respond', 'hi', '--model', 'deny'], { tty: false })
    expect(code).toBe(1)
    expect(stderr).not.toMatch(ACTED_ON)
    expect(stderr.trimEnd().split('\n'), stderr).toHaveLength(1)
    expect(stderr).toMatch(/^rxgate: HttpError: .*Bad model\\u001b\]52;c;/)
    expect(stderr).not.toMatch(new RegExp(`^${FORGED}`, 'm'))
  })

  it('a failed task whose error title and detail hold escapes: stderr holds none of them', async () => {
    const { code, stderr } = await run(['task', 't2vSpark', FAILED_TASK], { tty: false })
    expect(code).toBe(1)
    expect(stderr).toContain('TaskFailedError')
    expect(stderr).not.toMatch(ACTED_ON)
    expect(stderr).not.toMatch(new RegExp(`^${FORGED}`, 'm'))
  })

  // The client refuses such a URL in a task reply (test/validation/resultUrlControls.test.ts); printing is the second guard.
  it('a result URL holding a line break or a control character is printed as one line, the URL a parser reads', () => {
    expect(urlLines([SPLIT_URL, 'http://files.example.test/a\u001b[2J.mp4'])).toBe(`${new URL(SPLIT_URL).href}\nhttp://files.example.test/a%1B[2J.mp4\n`)
    const unparsed = urlLines(['not a url\r\nhttp://evil.test/run.sh'])
    expect(unparsed.split('\n')).toHaveLength(2) // one line and its end
    expect(unparsed).not.toMatch(ACTED_ON)
  })
})

describe('rxgate CLI usage errors', () => {
  it('an environment or argument quoted in a usage error: C1 controls and bidi overrides shown as escapes', async () => {
    let stderr = ''
    const err = vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => ((stderr += String(chunk)), true))
    try {
      const env = await main(['respond', 'hi'], { GATEWAY_BASE_URL: `ftp://x/${ATTACK.csi}${ATTACK.bidi}`, GATEWAY_API_KEY: 'sk-test-0123456789abcdef' })
      const argv = await main([`${ATTACK.csi}${ATTACK.bidi}`], {})
      expect([env, argv]).toEqual([2, 2])
    } finally {
      err.mockRestore()
    }
    expect(stderr).toContain('GATEWAY_BASE_URL must be an http:// or https:// URL (got "ftp://x/\\u009b2J\\u202efdp.exe")')
    expect(stderr).not.toMatch(ACTED_ON)
  })
})

describe('progress on stderr', () => {
  it.for([false, true])('isTTY %s: remote text in a status, a line or streamed text cannot run escapes; its own redraws still do', (isTTY) => {
    let written = ''
    const progress = createProgress({ isTTY, write: (text) => (written += text) }, () => 0)
    progress.status(`Task ${ATTACK.clipboard}`)
    progress.line(`Tool ${ATTACK.wipe}`)
    progress.write(`prompt ${ATTACK.link}\n`)
    progress.bar(`Downloading ${ATTACK.csi}`, 1, 2)
    progress.stop()
    const own = written.replace(/\r\x1b\[2K/g, '')
    expect(own).not.toMatch(ACTED_ON)
    expect(own).toContain('Task \\u001b]52;c;')
    expect(own).toContain('prompt \\u001b]8;;http://evil.test/')
  })
})
