// The same app's text part with the openai package (it has no video tasks).
import OpenAI from 'openai'

const client = new OpenAI({ baseURL: `${location.origin}/vendors/vendor-a/v1`, apiKey: sessionStorage.getItem('key'), dangerouslyAllowBrowser: true })
const out = document.querySelector('#out')
const stream = await client.responses.create({ model: 'gpt-4.1-mini', input: 'Write a video prompt', stream: true })
for await (const event of stream) if (event.type === 'response.output_text.delta') out.append(event.delta)
