// The same app's text part with the Vercel AI SDK (it has no video tasks).
import { createOpenAI } from '@ai-sdk/openai'
import { streamText } from 'ai'

const provider = createOpenAI({ baseURL: `${location.origin}/vendors/vendor-a/v1`, apiKey: sessionStorage.getItem('key') })
const out = document.querySelector('#out')
const result = streamText({ model: provider.responses('gpt-4.1-mini'), prompt: 'Write a video prompt' })
for await (const delta of result.textStream) out.append(delta)
