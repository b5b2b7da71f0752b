import { execFileSync } from 'node:child_process'
import { describe, expect, it } from 'vitest'
import { readArgs } from '../../src/cli/flags.js'
import { followCommand } from '../../src/cli/taskView.js'

// The follow command is printed for the user to paste into a shell: the shell must read back the words the user gave, and run nothing in them.

const ID = '0b6ea0f5-5f7e-4a7e-9a6c-2f0d5d0c9a11'

/** The words a POSIX shell reads from `command` (after `rxgate`), without running it. */
function wordsOf(command: string): string[] {
  const args = command.replace(/^rxgate /, '')
  return execFileSync('sh', ['-c', `set -- ${args}; printf '%s\\0' "$@"`], { encoding: 'utf8' }).split('\0').slice(0, -1)
}

describe('followCommand', () => {
  it.for([
    ['t2vSpark', undefined],
    ['t2vSpark', 'videos'],
    ['t2vSpark', 'my videos'],
    ['t2vSpark', '$(echo pwned)'],
    ['t2vSpark', '`echo pwned`'],
    ['t2vSpark', "it's; echo pwned"],
    ['vendor/model;echo pwned', 'out'],
    ['vendor/$HOME', '"quoted" \\ $x'],
  ] as const)('endpoint %j, --out %j: the shell reads back the same words', ([endpoint, out]) => {
    const command = followCommand(endpoint, ID, out)
    expect(wordsOf(command)).toEqual(['task', endpoint, ID, ...(out === undefined ? [] : ['--out', out])])
  })

  it.for(['-x', '--sim', "-it's"])('a folder named like a flag (%j): rxgate reads it back as the folder', (out) => {
    const { args } = readArgs(wordsOf(followCommand('t2vSpark', ID, out)), (name) => name === 'task')
    expect(args.values.out).toBe(out)
    expect(args.positionals).toEqual(['task', 't2vSpark', ID])
  })

  it('plain words stay plain', () => {
    expect(followCommand('t2vSpark', ID, 'out/videos')).toBe(`rxgate task t2vSpark ${ID} --out out/videos`)
    expect(followCommand('t2vSpark', ID, 'my videos')).toBe(`rxgate task t2vSpark ${ID} --out 'my videos'`)
  })
})
