// The libraries users pick instead, each set up against the same loopback
// server: the openai package, the Vercel AI SDK (Responses provider) and
// TanStack AI (its OpenAI Responses adapter).
import { createOpenAI } from '@ai-sdk/openai'
import { chat } from '@tanstack/ai'
import { createOpenaiChat } from '@tanstack/ai-openai'
import { generateText, streamText } from 'ai'
import OpenAI from 'openai'

/** Stream readers: each reads the streamed text of one response to its end (or until `stop()` says so) and returns it. */
export function streamPeers(url) {
  const base = `${url}/vendors/vendor-a/v1`
  const openai = new OpenAI({ baseURL: base, apiKey: 'bench-key', maxRetries: 0 })
  const provider = createOpenAI({ baseURL: base, apiKey: 'bench-key' })
  const tanstack = createOpenaiChat('gpt-4o', 'bench-key', { baseURL: base, maxRetries: 0 })
  return {
    openai: async (onDelta) => {
      let text = ''
      const stream = await openai.responses.create({ model: 'm', input: 'x', stream: true })
      for await (const event of stream) {
        if (event.type !== 'response.output_text.delta') continue
        text += event.delta
        if (onDelta?.(event.delta)) { stream.controller.abort(); break }
      }
      return text
    },
    'AI SDK': async (onDelta) => {
      let text = ''
      const controller = new AbortController()
      const result = streamText({ model: provider.responses('m'), prompt: 'x', abortSignal: controller.signal, maxRetries: 0 })
      for await (const delta of result.textStream) {
        text += delta
        if (onDelta?.(delta)) { controller.abort(); break }
      }
      return text
    },
    'TanStack AI': async (onDelta) => {
      let text = ''
      const controller = new AbortController()
      for await (const chunk of chat({ adapter: tanstack, messages: [{ role: 'user', content: 'x' }], abortController: controller })) {
        if (chunk.type !== 'TEXT_MESSAGE_CONTENT') continue
        text += chunk.delta
        if (onDelta?.(chunk.delta)) { controller.abort(); break }
      }
      return text
    },
  }
}

/** Non-stream creators: each creates one response and returns its text. TanStack AI has none (its `chat` always streams). */
export function createPeers(url) {
  const base = `${url}/vendors/vendor-a/v1`
  const openai = new OpenAI({ baseURL: base, apiKey: 'bench-key', maxRetries: 0 })
  const provider = createOpenAI({ baseURL: base, apiKey: 'bench-key' })
  return {
    openai: async () => (await openai.responses.create({ model: 'm', input: 'hi' })).output_text,
    'AI SDK': async () => (await generateText({ model: provider.responses('m'), prompt: 'hi', maxRetries: 0 })).text,
  }
}
