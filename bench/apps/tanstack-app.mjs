// The same app's text part with TanStack AI (it has no video tasks).
import { chat } from '@tanstack/ai'
import { createOpenaiChat } from '@tanstack/ai-openai'

const adapter = createOpenaiChat('gpt-4.1-mini', sessionStorage.getItem('key'), { baseURL: `${location.origin}/vendors/vendor-a/v1`, dangerouslyAllowBrowser: true })
const out = document.querySelector('#out')
for await (const chunk of chat({ adapter, messages: [{ role: 'user', content: 'Write a video prompt' }] })) {
  if (chunk.type === 'TEXT_MESSAGE_CONTENT') out.append(chunk.delta)
}
