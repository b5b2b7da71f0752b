import type { HttpClient, HttpInterceptorFn } from '@angular/common/http'
import {
  createEnvironmentInjector,
  Injector,
  provideZonelessChangeDetection,
  ɵINJECTOR_SCOPE as INJECTOR_SCOPE,
  ɵɵdefineInjectable as defineInjectable,
  ɵɵdefineInjector as defineInjector,
  ɵɵdefineNgModule as defineNgModule,
  ɵɵFactoryTarget as FactoryTarget,
  ɵɵinject as inject,
  type EnvironmentInjector,
  type Provider,
  type ProviderToken,
} from '@angular/core'

// Angular publishes @angular/common partially compiled: each class carries a
// declaration (`ɵɵngDeclareFactory`, `ɵɵngDeclareInjectable`, …) that an
// Angular build links ahead of time, or that @angular/compiler compiles when
// the module loads. A plain Node test has neither, so this file links the
// declarations `@angular/common/http` holds (factories and injectables of
// services, NgModules and their injectors; class metadata needs no linking)
// as Angular's linker does, with no compiler and no eval. Anything else (a
// directive, a pipe, a dependency with flags, a provider recipe the HTTP
// package does not use) throws: a stand-in that is wrong would be worse
// than none.

type Ctor = (new (...args: unknown[]) => unknown) & { ɵfac?: (t?: Ctor) => unknown }
type Factory = (t?: Ctor) => unknown
interface Declaration {
  readonly type: Ctor
}
interface FactoryDeclaration extends Declaration {
  readonly deps: readonly Record<string, unknown>[] | null | 'invalid'
  readonly target: FactoryTarget
}
interface InjectableDeclaration extends Declaration {
  readonly providedIn?: unknown
  readonly useExisting?: ProviderToken<unknown>
  readonly useFactory?: () => unknown
  readonly deps?: unknown
}
interface InjectorDeclaration extends Declaration {
  readonly providers?: Provider[]
  readonly imports?: unknown[]
}

const unsupported = (what: string, type: Ctor): never => {
  throw new Error(`angularHttpClient links only what @angular/common/http declares: ${what} of ${type.name} is not supported`)
}

const linker = {
  compileFactoryDeclaration(_env: unknown, _url: string, { type, deps, target }: FactoryDeclaration): Factory {
    if (target !== FactoryTarget.Injectable && target !== FactoryTarget.NgModule) unsupported(`a ${FactoryTarget[target]} factory`, type)
    if (!Array.isArray(deps) || deps.some((dep) => Object.keys(dep).some((key) => key !== 'token'))) unsupported('these constructor parameters', type)
    const tokens = (deps as readonly { token: ProviderToken<unknown> }[]).map((dep) => dep.token)
    // `t`: a subclass being built through its parent's factory.
    return (t) => new (t ?? type)(...tokens.map((token) => inject(token)))
  },

  compileInjectableDeclaration(_env: unknown, _url: string, decl: InjectableDeclaration): unknown {
    const { type, providedIn = null } = decl
    const own = Object.keys(decl).filter((key) => key.startsWith('use') || key === 'deps')
    let factory: Factory
    if (own.length === 0) factory = (t) => type.ɵfac!(t)
    else if (own.join() === 'useExisting') factory = (t) => (t ? new t() : inject(decl.useExisting!))
    else if (own.join() === 'useFactory') factory = () => decl.useFactory!()
    else return unsupported(`the provider recipe ${own.join(' + ')}`, type)
    return defineInjectable({ token: type, providedIn: providedIn as 'root', factory: factory as () => unknown })
  },

  compileNgModuleDeclaration(_env: unknown, _url: string, decl: Declaration & Record<string, unknown>): unknown {
    const { minVersion: _, version: __, ngImport: ___, ...def } = decl
    return defineNgModule(def as Parameters<typeof defineNgModule>[0])
  },

  compileInjectorDeclaration(_env: unknown, _url: string, { providers, imports }: InjectorDeclaration): unknown {
    return defineInjector({ providers: providers ?? [], imports: imports ?? [] })
  },
}

/**
 * A real Angular `HttpClient` over the fetch backend
 * (`provideHttpClient(withFetch(), withInterceptors(interceptors))`), made
 * as a zoneless app's root injector makes it, in plain Node. `destroy`
 * destroys that injector, as the end of the app does.
 */
export async function angularHttpClient(...interceptors: HttpInterceptorFn[]): Promise<{ http: HttpClient; destroy: () => void }> {
  // Where Angular looks for a compiler; @angular/compiler, when something loaded it first, links as well.
  const ng = ((globalThis as { ng?: { ɵcompilerFacade?: unknown } }).ng ??= {})
  ng.ɵcompilerFacade ??= linker
  const { HttpClient, provideHttpClient, withFetch, withInterceptors } = await import('@angular/common/http')
  const injector: EnvironmentInjector = createEnvironmentInjector(
    // The root scope: HttpClient and its backends are `providedIn: 'root'`.
    [{ provide: INJECTOR_SCOPE, useValue: 'root' }, provideZonelessChangeDetection(), provideHttpClient(withFetch(), withInterceptors(interceptors))],
    Injector.NULL as EnvironmentInjector,
  )
  return { http: injector.get(HttpClient), destroy: () => injector.destroy() }
}
