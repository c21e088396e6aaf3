/** Build-time stand-in for `ajv-formats` (see ajv-stub.ts): never called. */
export default function addFormats(): never {
  throw new Error('ajv-formats is not bundled: use CfWorkerJsonSchemaValidator');
}
