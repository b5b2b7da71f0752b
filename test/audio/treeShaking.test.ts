import { describe, expect, it } from 'vitest'
import { browserBundle } from '../helpers/browserBundle.js'

/** The files of src/audio whose code ends up in a browser bundle of an app that imports `names` (from the sources; `sideEffects: false` applies). */
async function audioModulesOf(names: string): Promise<string[]> {
  const result = await browserBundle(`import { ${names} } from './src/index.ts'; console.log(${names})`, { external: ['rxjs', 'undici', 'node:*'] })
  const [output] = Object.values(result.metafile.outputs)
  return Object.entries(output!.inputs)
    .filter(([file, input]) => file.includes('src/audio/') && input.bytesInOutput > 0)
    .map(([file]) => file.slice(file.indexOf('src/audio/')))
}

describe('the audio probe stays out of apps that do not call textToVideo$', () => {
  it('a stream-only app, or one that only follows tasks, carries none of src/audio', async () => {
    expect(await audioModulesOf('createClient, responses$, textDeltas')).toEqual([])
    expect(await audioModulesOf('createClient, task$, createTask$, taskUrls')).toEqual([])
  })

  it('an app that calls textToVideo$ carries it', async () => {
    expect(await audioModulesOf('createClient, textToVideo$')).toContain('src/audio/checkAudio$.ts')
  })
})
