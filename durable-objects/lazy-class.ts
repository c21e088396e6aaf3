import { DurableObject } from 'cloudflare:workers';

/** A Durable Object class as the runtime constructs it. */
type ObjectClass<T> = new (ctx: DurableObjectState, env: Env) => T;

/** The names of a class's own methods: every RPC method and handler (`alarm`) the runtime may call. */
export type MethodNames<T> = { [K in keyof T]: T[K] extends (...args: never[]) => unknown ? K : never }[keyof T] & string;

/**
 * A thin Durable Object class whose implementation is imported by the object's first start, not by
 * the module scope of every Worker start (docs/contributors/architecture.md, "Startup"): the bundle's module scope runs in each
 * isolate, the Worker's and the objects' alike, and an object class's imports (drizzle, its tables,
 * funding) are most of what remains there.
 *
 * The constructor imports and constructs the implementation inside one `blockConcurrencyWhile`, so
 * no event is delivered before the implementation's own initialization (migrations, memory) has
 * finished, as when it was the class itself. That initialization is the implementation
 * constructor's `blockConcurrencyWhile` callbacks: while it is constructed they run at once and
 * our critical section awaits them (a nested critical section would wait for ours forever); later
 * calls reach the real one. Each name in `methods` is a method on the prototype (RPC finds methods
 * there) that forwards to the implementation; a test checks the list against its prototype.
 */
export function lazyDurableObject<T extends object>(load: () => Promise<ObjectClass<T>>, methods: readonly MethodNames<T>[]): ObjectClass<T> {
  /**
   * The implementation once an object of this isolate has loaded it: later objects construct it
   * without awaiting an import. An `await` on an import another object's start is driving (under
   * Vitest, whose module runner loads over I/O) resumes in that object's I/O context, where this
   * object's storage may not be touched.
   */
  let loaded: ObjectClass<T> | undefined;
  class LazyDurableObject extends DurableObject<Env> {
    readonly impl: Promise<T>;

    constructor(ctx: DurableObjectState, env: Env) {
      super(ctx, env);
      let resolve!: (impl: T) => void;
      let reject!: (err: unknown) => void;
      const promise = new Promise<T>((res, rej) => {
        resolve = res;
        reject = rej;
      });
      this.impl = promise;
      // A call that finds the object broken gets the error; nothing else awaits it.
      promise.catch(() => {});
      void ctx.blockConcurrencyWhile(async () => {
        try {
          const Impl = loaded ?? (loaded = await load());
          const initializing: Promise<unknown>[] = [];
          // The runtime checks the state's type, so the method is shadowed on the state itself while constructing.
          Object.defineProperty(ctx, 'blockConcurrencyWhile', {
            configurable: true,
            value: <R>(callback: () => Promise<R>): Promise<R> => {
              const done = (async () => callback())();
              initializing.push(done);
              return done;
            },
          });
          let impl: T;
          try {
            impl = new Impl(ctx, env);
          } finally {
            Reflect.deleteProperty(ctx, 'blockConcurrencyWhile');
          }
          await Promise.all(initializing);
          resolve(impl);
        } catch (err) {
          reject(err);
          throw err;
        }
      });
    }
  }
  for (const name of methods) {
    Object.defineProperty(LazyDurableObject.prototype, name, {
      async value(this: LazyDurableObject, ...args: unknown[]) {
        const impl = (await this.impl) as Record<string, (...args: unknown[]) => unknown>;
        return impl[name]!(...args);
      },
      writable: true,
      configurable: true,
    });
  }
  return LazyDurableObject as unknown as ObjectClass<T>;
}
