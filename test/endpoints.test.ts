import { describe, expect, it } from 'vitest'
import { endpoints, taskEndpoint } from '../src/endpoints.js'
import { InvalidRequestError } from '../src/errors/InvalidRequestError.js'

describe('endpoints', () => {
  it('holds the six media models of the interface, with their result paths, kinds and creation paths', () => {
    expect(endpoints).toEqual({
      t2vSpark: { name: 'vendor-b/t2v-spark', kind: 'video', createPath: '/vendors/vendor-b/v1/t2v-spark/generation', resultPath: '/vendors/vendor-b/v1/t2v-spark/generation' },
      videoOne: { name: 'vendor-a/video-one', kind: 'video', createPath: '/vendors/vendor-a/v1/video-one/generation', resultPath: '/vendors/vendor-a/v1/video-one/generation' },
      i2vSpark: { name: 'vendor-b/i2v-spark', kind: 'video', createPath: '/vendors/vendor-b/v1/i2v-spark/generation', resultPath: '/vendors/vendor-b/v1/i2v-spark/generation' },
      videoTwo: { name: 'vendor-c/video-two', kind: 'video', createPath: '/vendors/vendor-c/v1/video-two/generation', resultPath: '/vendors/vendor-c/v1/video-two/generation' },
      imageEdit: { name: 'vendor-d/image-edit', kind: 'image', resultPath: '/vendors/vendor-d/v1/image/edit' },
      i2iPreview: { name: 'vendor-d/i2i-preview', kind: 'image', createPath: '/vendors/vendor-d/v1/i2i-preview/generation', resultPath: '/vendors/vendor-d/v1/i2i-preview/generation' },
    })
  })
})

describe('taskEndpoint', () => {
  it('addresses any model by the path pattern /vendors/{vendor}/v1/{model}/{action}', () => {
    expect(taskEndpoint({ vendor: 'vendor-b', model: 't2v-wan26', kind: 'video' })).toEqual({
      name: 'vendor-b/t2v-wan26',
      kind: 'video',
      createPath: '/vendors/vendor-b/v1/t2v-wan26/generation',
      resultPath: '/vendors/vendor-b/v1/t2v-wan26/generation',
    })
    expect(taskEndpoint({ vendor: 'v', model: 'm.2_x', kind: 'image', action: 'edit', poll: { initialDelayMs: 500 } })).toEqual({
      name: 'v/m.2_x',
      kind: 'image',
      createPath: '/vendors/v/v1/m.2_x/edit',
      resultPath: '/vendors/v/v1/m.2_x/edit',
      poll: { initialDelayMs: 500 },
    })
  })

  it.each([
    [{ vendor: 'a/b', model: 'm', kind: 'video' }, 'vendor'],
    [{ vendor: 'v', model: '../x', kind: 'video' }, 'model'],
    [{ vendor: 'v', model: 'm', kind: 'video', action: 'gen?x=1' }, 'action'],
    [{ vendor: '', model: 'm', kind: 'video' }, 'vendor'],
    [{ vendor: 'v', model: 'm', kind: 'audio' }, 'kind'],
    [{ vendor: 'v', model: 42, kind: 'video' }, 'model'],
  ])('refuses %j with InvalidRequestError naming %s', (options, field) => {
    expect(() => taskEndpoint(options as never)).toThrow(InvalidRequestError)
    try {
      taskEndpoint(options as never)
    } catch (err) {
      expect((err as InvalidRequestError).issues.map((i) => i.path)).toEqual([field])
    }
  })

  it('says what is wrong with each field, in one message', () => {
    let err: InvalidRequestError | undefined
    try {
      taskEndpoint({ vendor: 'a/b', model: 42, kind: 'audio', action: '' } as never)
    } catch (e) {
      err = e as InvalidRequestError
    }
    expect(err).toBeInstanceOf(InvalidRequestError)
    expect(err!.issues).toEqual([
      { path: 'vendor', message: 'must be a path segment of letters, digits, ".", "_" or "-" (got "a/b")' },
      { path: 'model', message: 'must be a path segment of letters, digits, ".", "_" or "-" (got 42)' },
      { path: 'action', message: 'must be a path segment of letters, digits, ".", "_" or "-" (got "")' },
      { path: 'kind', message: 'must be "video" or "image"' },
    ])
    expect(err!.message).toBe(
      'Invalid task endpoint: vendor: must be a path segment of letters, digits, ".", "_" or "-" (got "a/b"); model: must be a path segment of letters, digits, ".", "_" or "-" (got 42); action: must be a path segment of letters, digits, ".", "_" or "-" (got ""); kind: must be "video" or "image". Nothing was sent.',
    )
  })
})
