// A TypeDoc plugin (typedoc.json loads it): a signature's return and
// parameter types are shown as the source writes them, `Observable<Response>`,
// as in the published .d.ts files. TypeDoc otherwise prints what the type
// checker resolves them to, and the payload types are inferred from valibot
// schemas (`v.InferOutput<typeof ResponseSchema>`), which the checker keeps no
// name for: every operator over a `Response` would print its hundred fields
// inline, once per signature.
import { Converter, ReflectionKind } from 'typedoc'

const WRITTEN = ReflectionKind.CallSignature | ReflectionKind.Parameter

/** @param {import('typedoc').Application} app */
export function load(app) {
  const convertType = app.converter.convertType
  app.converter.convertType = function (context, typeOrNode, node) {
    // A checker type (not a node) with the annotation it came from, for a
    // signature's return type or a parameter: convert the annotation.
    const written = node && typeOrNode && !('kind' in typeOrNode) && context.scope.kindOf(WRITTEN)
    return written ? convertType.call(this, context, node) : convertType.call(this, context, typeOrNode, node)
  }
  // A member of an interface inferred from a valibot schema (`ClientOptions`)
  // is declared by the schema's entry, whose initializer TypeDoc would print
  // as a default (`= ...`): an interface has no defaults but its `@defaultValue` tags.
  app.converter.on(Converter.EVENT_RESOLVE_BEGIN, (context) => {
    for (const reflection of Object.values(context.project.reflections)) {
      if (!reflection.kindOf(ReflectionKind.Property) || !reflection.parent?.kindOf(ReflectionKind.Interface)) continue
      reflection.defaultValue = undefined
      // "Inherited from v.InferInput.x" names no page: the member is the schema's, documented here.
      if (reflection.inheritedFrom?.name.startsWith('v.InferInput.')) reflection.inheritedFrom = undefined
    }
  })
}
