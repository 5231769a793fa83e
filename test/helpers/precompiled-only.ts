/**
 * A fresh process that judges with the validators kept in the folder given (as every worker of a
 * run does) and prints which of ajv's modules it loaded: test/unit/precompiled.test.ts expects none
 * but the one runtime helper the kept code requires.
 */
import { createRequire } from 'node:module';
import { usePrecompiledValidators } from '../../src/schema/precompiled.js';
import { schemaModel } from '../../src/schema/model.js';

const how = usePrecompiledValidators(process.argv[2]);
const model = schemaModel();
const judged = model.resources.map((r) => model.validator(r.name, 'Record')({}).ok);
// its code, not the package.json files the module's name is made from (src/schema/precompiled.ts precompiledHash)
const loaded = Object.keys(createRequire(import.meta.url).cache).filter((f) => /[\\/]node_modules[\\/]ajv(-formats)?[\\/].*\.js$/.test(f));
process.stdout.write(JSON.stringify({ how, judged: judged.length, anyValid: judged.some(Boolean), loaded }));
