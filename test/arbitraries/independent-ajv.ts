import { readFileSync } from 'node:fs';
import Ajv2020Module from 'ajv/dist/2020.js';
import AjvModule from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { ValidateFunction } from 'ajv';
import { addMcpFormats } from '../../protocol/formats.js';

const Ajv2020 = (Ajv2020Module as any).default ?? Ajv2020Module;
const Ajv07 = (AjvModule as any).default ?? AjvModule;
const addFormats = (addFormatsModule as any).default ?? addFormatsModule;

/**
 * A validator built here, apart from the registry the generators use, so the property suite
 * judges generated values with a second opinion rather than the generator's own cache.
 */
export function independentValidator(file: string): (pointer: string) => ValidateFunction {
  const root = JSON.parse(readFileSync(file, 'utf8'));
  const is07 = String(root.$schema).includes('draft-07');
  const ajv = is07 ? new Ajv07({ allErrors: true, strict: false, logger: false }) : new Ajv2020({ allErrors: true, strict: false, logger: false });
  addFormats(ajv);
  addMcpFormats(ajv);
  const id = 'test:' + file;
  ajv.addSchema({ ...root, $id: id }, id);
  return (pointer) => ajv.getSchema(id + pointer) as ValidateFunction;
}
