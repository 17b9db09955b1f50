import { describe, expect, it } from 'vitest';
import { reject, type Checked, type Rejection, type Result } from '../../controller/kernel/result.ts';
import { applied, type Outcome } from '../../controller/rules/common/outcome.ts';
import { driverFailure } from '../../controller/hardware/serial/command-results.ts';
import { hubError } from '../../controller/hardware/buzzer-hub/hub-errors.ts';

describe('the one result shape', () => {
  it('a refusal is {ok: false, code, message} in that order, so its JSON on MQTT, in files and on the CLI is what it was', () => {
    expect(JSON.stringify(reject('NOT_AVAILABLE', 'table t1 runs no game'))).toBe('{"ok":false,"code":"NOT_AVAILABLE","message":"table t1 runs no game"}');
    // The station driver's and the buzzer hub's refusals are the same shape.
    expect(JSON.stringify(driverFailure('OFFLINE'))).toBe('{"ok":false,"code":"OFFLINE","message":"the station is offline"}');
    expect(JSON.stringify(hubError('NO_LAMP', 'b3'))).toBe('{"ok":false,"code":"NO_LAMP","message":"this button has no lamp configured: b3"}');
  });

  it('narrows on ok: success carries its fields beside ok, a refusal its code; the rules engines use the same rejection', () => {
    const parse = (text: string): Result<{ value: number }, 'NOT_A_NUMBER'> => {
      const value = Number(text);
      return Number.isNaN(value) ? reject('NOT_A_NUMBER', `"${text}" is not a number`) : { ok: true, value };
    };
    const good = parse('42');
    const bad = parse('x');
    expect(good.ok && good.value).toBe(42);
    expect(!bad.ok && bad.code).toBe('NOT_A_NUMBER');
    const outcomes: Outcome<string, never, 'BAD'>[] = [reject('BAD', 'no'), applied('s', [])];
    const refusals: Rejection[] = outcomes.filter((o): o is Rejection<'BAD'> => !o.ok);
    expect(refusals).toEqual([{ ok: false, code: 'BAD', message: 'no' }]);
    expect(applied('s', [])).toEqual({ ok: true, state: 's', events: [] });
    const check = (n: unknown): Checked<{ n: number }> => (typeof n === 'number' ? { ok: true, n } : { ok: false, errors: ['n: required'] });
    const checked = check(undefined);
    expect(checked.ok ? [] : checked.errors).toEqual(['n: required']);
  });
});
