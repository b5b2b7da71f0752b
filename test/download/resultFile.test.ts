import { describe, expect, it } from 'vitest'
import { isInvalidRequestError } from '../../src/errors/InvalidRequestError.js'
import { resultExtension } from '../../src/download/resultExtension.js'
import { resultFile } from '../../src/download/resultFile.js'

const ID = '0b6ea0f5-5f7e-4a7e-9a6c-2f0d5d0c9a11'

/** What `resultFile` throws for these arguments. */
function refusal(taskId: string, ext = 'png'): unknown {
  try {
    resultFile('out', taskId, 1, ext)
  } catch (error) {
    return error
  }
  throw new Error('nothing was thrown')
}

describe('resultFile', () => {
  it('names <folder>/<taskId in lower case>-<index>.<ext>', () => {
    expect(resultFile('out', ID.toUpperCase(), 2, 'mp4')).toBe(`out/${ID}-2.mp4`)
    expect(resultFile('/srv/out', 'Task_A-1', 3, 'jpeg')).toBe('/srv/out/task_a-1-3.jpeg')
  })

  it.each(['x.y', '.hidden', 'a b', '-lead', '../../x', 'a'.repeat(129)])('refuses the task id %j, saying what a task id must be', (taskId) => {
    const error = refusal(taskId)
    expect(isInvalidRequestError(error)).toBe(true)
    const message = `must be a UUID or a plain name (letters, digits, _ and -) to name a file (got ${JSON.stringify(taskId).slice(0, 80)})`
    expect(error).toMatchObject({ issues: [{ path: 'taskId', message }], message: `Invalid result file name: taskId: ${message}. Nothing was sent.` })
  })

  it.each([
    [42, '42'],
    [null, 'null'],
  ])('refuses a task id that is not a string (%j), though its text would be a plain name', (taskId, shown) => {
    expect(refusal(taskId as never)).toMatchObject({ name: 'InvalidRequestError', issues: [{ path: 'taskId', message: expect.stringContaining(`(got ${shown})`) }] })
  })

  it('shows at most 80 characters of a long task id', () => {
    const error = refusal(`${'a'.repeat(200)}.`) as Error
    expect(error.message).toContain(`(got "${'a'.repeat(79)})`)
    expect(error.message).not.toContain('a'.repeat(80))
  })

  it.each(['', 'toolong', '.mp4', 'x.mp4', 'mp4/x', 'mp4.', 'MP4', 'mp4\n'])('refuses the extension %j', (ext) => {
    expect(refusal(ID, ext)).toMatchObject({
      name: 'InvalidRequestError',
      issues: [{ path: 'ext', message: `must be 1 to 5 lower-case letters or digits (got ${JSON.stringify(ext)})` }],
    })
  })
})

describe('resultExtension', () => {
  it.each([
    ['https://cdn.example/v/clip.MOV?sig=x', 'video', 'mov'],
    ['https://cdn.example/v/clip', 'video', 'mp4'],
    ['https://cdn.example/v/clip.mkv', 'video', 'mkv'],
    ['https://cdn.example/i/photo.AVIF', 'image', 'avif'],
    ['https://cdn.example/i/scan.tiff', 'image', 'tiff'],
    ['https://cdn.example/i/photo.avif', 'video', 'mp4'],
    ['https://cdn.example/v1.2/clip', 'video', 'mp4'],
    ['https://cdn.example/v/clip.mp4.exe', 'video', 'mp4'],
    ['https://cdn.example/v/clip.webm', 'video', 'webm'],
    ['https://cdn.example/i/page.html', 'image', 'png'],
    ['https://cdn.example/i/run.exe?x=.png', 'image', 'png'],
    ['https://cdn.example/i/run.exe#.png', 'image', 'png'],
    ['https://cdn.example/i/a.png.', 'image', 'png'],
    ['https://cdn.example/i/a.JPEG', 'image', 'jpeg'],
    ['https://cdn.example/i/mp4', 'video', 'mp4'],
    ['https://cdn.example/i/gif', 'image', 'png'],
    ['not a url.gif', 'image', 'png'],
  ] as const)('%s (%s): %s', (url, kind, ext) => {
    expect(resultExtension(url, kind)).toBe(ext)
  })
})
