import { describe, expect, it } from 'vitest'
import { chunksOf, keywordsOf, piecesOf } from '../../src/sim/pieces.js'
import { factsOf, recallAnswer } from '../../src/sim/recall.js'
import { answerTo, isGreeting } from '../../src/sim/replyText.js'
import { subjectOf } from '../../src/sim/subject.js'
import { argumentTextOf, answerFromOutputs } from '../../src/sim/toolAnswer.js'
import { usageOf } from '../../src/sim/usage.js'
import { topicOf, videoPromptAbout, wantsVideoPrompt } from '../../src/sim/videoPrompt.js'

describe('simulator text', () => {
  it('finds the topic of a video request', () => {
    expect(topicOf('A short video about: a lighthouse')).toBe('a lighthouse')
    expect(topicOf('Write a video prompt about a harbour at night.')).toBe('a harbour at night')
    expect(topicOf('make a clip of two otters')).toBe('two otters')
    expect(topicOf('foxes')).toBe('foxes')
    expect(topicOf('   ')).toBe('a quiet city at dawn')
  })

  it('writes the same 20–55 word cinematic prompt about the topic for the same topic, with an em dash', () => {
    const topics = Array.from({ length: 300 }, (_, i) => `topic number ${i}`)
    const prompts = topics.map(videoPromptAbout)
    expect(new Set(prompts).size).toBeGreaterThan(50)
    prompts.forEach((prompt, i) => {
      const words = prompt.split(/\s+/).length
      expect(words).toBeGreaterThanOrEqual(20)
      expect(words).toBeLessThanOrEqual(55)
      expect(prompt).toContain(' — ')
      expect(prompt).toContain(topics[i])
    })
    expect(videoPromptAbout('a fox')).toBe(videoPromptAbout('a fox'))
  })

  it('knows a video request, a greeting, and other input', () => {
    expect(wantsVideoPrompt('You write prompts for a text-to-video model', 'a fox')).toBe(true)
    expect(wantsVideoPrompt('', 'Write a cinematic shot list')).toBe(true)
    expect(wantsVideoPrompt('', 'A fox in the snow')).toBe(false)
    for (const greeting of ['Say hi', 'hi', 'Hello there!', 'hey', 'Good evening', 'please say hello']) expect(isGreeting(greeting)).toBe(true)
    for (const other of ['hi, what is the capital of France?', 'Say something nice about hills', 'history of hiking']) expect(isGreeting(other)).toBe(false)
  })

  it('answers other input with its own words, questions and statements alike', () => {
    const question = answerTo('How do tides work near the equator?')
    expect(question).toMatch(/tides/)
    expect(question).toContain('—')
    expect(answerTo('Describe the Roman aqueducts')).toMatch(/roman|aqueducts/i)
    expect(answerTo('')).toContain('empty message')
    expect(keywordsOf('What is the history of glass making?')).toEqual(['history', 'glass', 'making'])
  })

  it('names the subject of a question or request rather than quoting it; other text is still quoted', () => {
    expect(subjectOf('What is the capital of France?')).toBe('the capital of France')
    expect(subjectOf('So, how do tides work near the equator?')).toBe('how tides work near the equator')
    expect(subjectOf('Can you explain my options, please?')).toBe('your options')
    expect(subjectOf('I like boats. Who was Ada Lovelace?')).toBe('Ada Lovelace')
    for (const unfit of ['What is your name?', 'What are black holes made of?', 'Why does the sky look blue?', 'A fox in the snow']) expect(subjectOf(unfit)).toBeUndefined()
    const capital = answerTo('What is the capital of France?')
    expect(capital).toMatch(/the capital of France/i)
    expect(capital).not.toContain('“')
    expect(answerTo('Describe the Roman aqueducts')).toMatch(/^[^“]*the Roman aqueducts/)
    expect(answerTo('Say bye')).toBe('Thanks for your message about “Say bye”. In short — bye stands out; tell me what you need and I will build on that.')
  })

  it('reads what the user tells of themselves, the latest first, and answers from it', () => {
    const said = (...texts: string[]) => texts.map((text) => ({ role: 'user', text }))
    expect(factsOf(said('My name is Ada and I live in Lisbon.', 'Call me Ada Lovelace', 'my favourite colour is teal'))).toEqual(
      new Map([
        ['name', 'Ada Lovelace'],
        ['home', 'Lisbon'],
        ['favourite colour', 'teal'],
      ]),
    )
    expect(factsOf(said("I'm French.", 'I am tired'))).toEqual(new Map())
    expect(recallAnswer('Hi, I’m Ada!', said('Hi, I’m Ada!'))).toBe('Nice to meet you, Ada! How can I help you today?')
    expect(recallAnswer('Where do I live?', said('Where do I live?'))).toBe("I don't know where you live yet — tell me and I will remember it.")
    expect(recallAnswer('My name is Ada and I want to learn about tides', said('My name is Ada and I want to learn about tides'))).toBeUndefined()
    expect(recallAnswer('Tell me about tides', said('Tell me about tides'))).toBeUndefined()
  })

  it('states each function output, and finds the place a function is asked about', () => {
    expect(answerFromOutputs([{ name: 'get_weather', output: '{"temperature":21,"unit":"celsius"}' }])).toBe(
      'Here is what I found — get_weather returned temperature 21 and unit celsius. Anything else?',
    )
    expect(answerFromOutputs([{ name: 'a', output: 'plain text' }, { name: 'b', output: '[1,2]' }])).toContain('a returned “plain text”; b returned [1,2]')
    expect(argumentTextOf('What is the weather in New York today? use get_weather', ['get_weather'])).toBe('New York')
    expect(argumentTextOf('call lookup_order for order 42', ['lookup_order'])).toBe('call for order 42')
  })

  it('splits text into pieces that join back exactly, never inside a character', () => {
    const text = 'Slow dolly-in — a café,  at dusk.'
    expect(piecesOf(text)).toEqual(['Slow', ' dolly-in', ' —', ' a', ' café,', '  at', ' dusk.'])
    expect(piecesOf(text).join('')).toBe(text)
    const json = '{"emoji":"😀😀😀😀😀😀😀😀😀"}'
    expect(chunksOf(json).join('')).toBe(json)
    expect(chunksOf(json).every((piece) => !/[\uD800-\uDBFF]$/.test(piece))).toBe(true)
  })

  it('builds usage in both shapes with consistent totals, reasoning counted in the output', () => {
    expect(usageOf(3, 4, 1, 'spec')).toMatchObject({ prompt_tokens: 3, completion_tokens: 4, total_tokens: 7, completion_tokens_details: { reasoning_tokens: 1 } })
    expect(usageOf(3, 4, 1, 'openai')).toMatchObject({ input_tokens: 3, output_tokens: 4, total_tokens: 7, output_tokens_details: { reasoning_tokens: 1 } })
  })
})
