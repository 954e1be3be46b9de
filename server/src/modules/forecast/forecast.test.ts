import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Status, type InverseVelocityAnswer, type PredictionAnswer } from '@geosentry/contract';
import { testApp, type TestApp } from '../../../test/harness.ts';
import { roleWith, userToken } from '../devices/testkit.ts';

const A = '/api/v2/data/algorithm';
const TEXTBOOK = [71.1, 72.4, 72.4, 72.1, 71.4, 72.0, 71.6];
const DAY = 86_400_000;

describe('forecast', () => {
  let t: TestApp;
  let admin: string;
  let predictor: string;
  let viewer: string;
  beforeAll(async () => {
    t = await testApp();
    admin = await t.token();
    await roleWith(t, admin, 'predictor', ['monitor:predict']);
    await roleWith(t, admin, 'nopredict', ['information:terminal']);
    predictor = await userToken(t, admin, { account: 'pred1', roleCode: 'predictor' });
    viewer = await userToken(t, admin, { account: 'view1', roleCode: 'nopredict' });
  });
  afterAll(() => t.close());

  it('gmPrediction fits GM(1,1) to the last sampleNum values (JSON body)', async () => {
    const r = await t.api<PredictionAnswer>('POST', `${A}/gmPrediction`, {
      token: predictor,
      body: { data: [1, 2, 3, ...TEXTBOOK], sampleNum: 7, predictNum: 3, type: 1 },
    });
    expect(r.status).toBe(Status.ok);
    expect(r.data.method).toBe('gm11');
    expect(r.data.type).toBe(1);
    expect(r.data.sample).toEqual(TEXTBOOK);
    expect(r.data.gm!.a).toBeCloseTo(0.0023437865, 8);
    expect(r.data.gm!.b).toBeCloseTo(72.657269604, 6);
    expect(r.data.predicted).toHaveLength(3);
    expect(r.data.predicted[0]).toBeCloseTo(71.39464589, 6);
    expect(r.data.fitted).toHaveLength(7);
    expect(r.data.residuals[0]).toBe(0);
    // C and P over all 7 residuals, the first being 0 (the textbook posterior-error test).
    expect(r.data.stats).toMatchObject({ convention: 'allResiduals', residualCount: 7, grade: 'qualified' });
    expect(r.data.stats.c).toBeCloseTo(0.48073974, 6);
    expect(r.data.shift).toBe(0);
    expect(r.data.holt).toBeNull();
    expect(r.data.notes).toEqual([]);
  });

  it('getPrediction (Holt) accepts a form-encoded comma-separated series', async () => {
    const r = await t.api<PredictionAnswer>('POST', `${A}/getPrediction`, {
      token: predictor,
      form: true,
      body: { data: '1,3,5,7,9,11', sampleNum: '5', predictNum: '2', type: '0' },
    });
    expect(r.status).toBe(Status.ok);
    expect(r.data.method).toBe('holt');
    expect(r.data.sample).toEqual([3, 5, 7, 9, 11]);
    expect(r.data.predicted[0]).toBeCloseTo(13, 8);
    expect(r.data.predicted[1]).toBeCloseTo(15, 8);
    expect(r.data.stats.rmse).toBeCloseTo(0, 8);
    expect(r.data.stats).toMatchObject({ convention: 'oneStepAhead', residualCount: 4 });
    expect(r.data.holt!.alpha).toBeGreaterThan(0);
    expect(r.data.gm).toBeNull();

    const repeated = await t.api<PredictionAnswer>('POST', `${A}/gmPrediction`, {
      token: predictor,
      form: true,
      body: { data: TEXTBOOK.map(String), sampleNum: '7', predictNum: '1' },
    });
    expect(repeated.status).toBe(Status.ok);
    expect(repeated.data.sample).toEqual(TEXTBOOK);
    expect(repeated.data.predicted[0]).toBeCloseTo(71.39464589, 6);
  });

  it('accepts the series as a JSON array in a form field, and says clearly when that JSON is malformed', async () => {
    // What a form-encoded client sends for an array: data=[2.874,3.278,...] (before: "data.0 has the wrong type").
    const r = await t.api<PredictionAnswer>('POST', `${A}/gmPrediction`, {
      token: predictor,
      form: true,
      body: { data: '[2.874, 3.278, 3.337, 3.390, 3.679]', sampleNum: '5', predictNum: '1' },
    });
    expect(r.status).toBe(Status.ok);
    expect(r.data.sample).toEqual([2.874, 3.278, 3.337, 3.39, 3.679]);
    // The textbook example: C = 0.2125, P = 1, good.
    expect(r.data.stats).toMatchObject({ c: 0.212471986075, p: 1, grade: 'good', residualCount: 5 });

    const json = await t.api<PredictionAnswer>('POST', `${A}/getPrediction`, {
      token: predictor,
      body: { data: '[1, 3, 5, 7, 9]', sampleNum: 5, predictNum: 1 },
    });
    expect(json.status).toBe(Status.ok);
    expect(json.data.sample).toEqual([1, 3, 5, 7, 9]);

    for (const [lang, bad, text] of [
      ['en', '[1, 2, 3', 'data is not a well-formed JSON array of numbers'],
      ['zh', '[1, 2, 3,]', 'data 不是格式正确的 JSON 数字数组'],
      ['ko', '[{"a":1}', 'data 올바른 JSON 숫자 배열이 아닙니다'],
    ] as const) {
      const m = await t.api<{ errors: { field: string; rule: string }[] }>('POST', `${A}/gmPrediction`, {
        token: predictor,
        lang,
        form: true,
        body: { data: bad, sampleNum: '4', predictNum: '1' },
      });
      expect(m.status).toBe(Status.invalid);
      expect(m.info).toContain(text);
      expect(m.data.errors).toEqual([expect.objectContaining({ field: 'data', rule: 'jsonNumberArray' })]);
    }
    // A well-formed JSON array of something else is a type error of its items, as in a JSON body.
    const strings = await t.api<{ errors: { field: string }[] }>('POST', `${A}/gmPrediction`, {
      token: predictor,
      form: true,
      body: { data: '[1, 2, "x", 4]', sampleNum: '4', predictNum: '1' },
    });
    expect(strings.status).toBe(Status.invalid);
    expect(strings.data.errors[0]!.field).toBe('data.2');
  });

  it('answers values without float noise', async () => {
    // A straight line: Holt's forecast is level + h * trend, which in binary floats carries noise.
    const data = [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8];
    const r = await t.api<PredictionAnswer>('POST', `${A}/getPrediction`, {
      token: predictor,
      body: { data, sampleNum: 8, predictNum: 3 },
    });
    expect(r.status).toBe(Status.ok);
    expect(r.data.predicted).toEqual([0.9, 1, 1.1]);
    expect(r.data.fitted).toEqual(data);
    for (const v of [...r.data.fitted, ...r.data.residuals, ...r.data.predicted])
      expect(
        String(v)
          .replace(/^-?0\./, '')
          .replace('.', '').length,
      ).toBeLessThanOrEqual(12);
  });

  it('states the conventions in the API document', async () => {
    const doc = (await t.raw('GET', '/api/docs/json')).json() as {
      paths: Record<
        string,
        { post: { requestBody?: { content: Record<string, { schema: { description?: string } }> } } }
      >;
    };
    const description = (path: string) =>
      Object.values(doc.paths[`${A}/${path}`]!.post.requestBody!.content)[0]!.schema.description ?? '';
    expect(description('gmPrediction')).toContain('over all n residuals, the first being 0');
    expect(description('getPrediction')).toContain('n - 1 one-step-ahead errors');
    expect(description('inverseVelocity')).toContain('midpoint in time');
    expect(description('inverseVelocity')).toContain('not a confidence');
  });

  it('shifts a non-positive series for GM(1,1) and says so, in the caller language', async () => {
    const r = await t.api<PredictionAnswer>('POST', `${A}/gmPrediction`, {
      token: predictor,
      lang: 'zh',
      body: { data: [-3, -2, -1, 0, 1, 2], sampleNum: 6, predictNum: 1 },
    });
    expect(r.status).toBe(Status.ok);
    expect(r.data.shift).toBe(8);
    expect(r.data.notes[0]).toContain('8');
    expect(r.data.notes[0]).toContain('灰色模型');
    expect(r.data.predicted[0]).toBeGreaterThan(2);
  });

  it('refuses bad input with a translated error', async () => {
    const tooShort = await t.api('POST', `${A}/gmPrediction`, {
      token: predictor,
      body: { data: [1, 2, 3, 4, 5], sampleNum: 6, predictNum: 1 },
    });
    expect(tooShort.status).toBe(Status.invalid);
    expect(tooShort.info).toBe('The series has 5 values; at least sampleNum = 6 are needed');

    const ko = await t.api('POST', `${A}/getPrediction`, {
      token: predictor,
      lang: 'ko',
      body: { data: [1, 2, 3, 4, 5], sampleNum: 6, predictNum: 1 },
    });
    expect(ko.info).toContain('sampleNum = 6');
    expect(ko.info).toContain('필요합니다');

    const sample3 = await t.api<{ errors: { field: string }[] }>('POST', `${A}/getPrediction`, {
      token: predictor,
      body: { data: [1, 2, 3, 4, 5], sampleNum: 3, predictNum: 1 },
    });
    expect(sample3.status).toBe(Status.invalid);
    expect(sample3.data.errors[0]!.field).toBe('sampleNum');

    const steps = await t.api<{ errors: { field: string }[] }>('POST', `${A}/getPrediction`, {
      token: predictor,
      body: { data: [1, 2, 3, 4, 5], sampleNum: 4, predictNum: 101 },
    });
    expect(steps.status).toBe(Status.invalid);
    expect(steps.data.errors[0]!.field).toBe('predictNum');

    const notNumber = await t.api<{ errors: { field: string }[] }>('POST', `${A}/getPrediction`, {
      token: predictor,
      form: true,
      body: { data: '1,2,,4,5', sampleNum: 4, predictNum: 1 },
    });
    expect(notNumber.status).toBe(Status.invalid);
    expect(notNumber.data.errors[0]!.field).toMatch(/^data/);

    const mismatch = await t.api('POST', `${A}/getPrediction`, {
      token: predictor,
      body: { data: [1, 2, 3, 4, 5], sampleNum: 4, predictNum: 1, type: 1 },
    });
    expect(mismatch.status).toBe(Status.invalid);
    expect(mismatch.info).toBe('type 1 does not match this call (expected 0)');

    const missing = await t.api<{ errors: { field: string; rule: string }[] }>('POST', `${A}/gmPrediction`, {
      token: predictor,
      body: { sampleNum: 4, predictNum: 1 },
    });
    expect(missing.status).toBe(Status.invalid);
    expect(missing.data.errors[0]).toMatchObject({ field: 'data', rule: 'required' });
  });

  it('answers the inverse-velocity estimate of an accelerating series', async () => {
    const t0 = Date.UTC(2026, 0, 1);
    const times: number[] = [];
    const values: number[] = [];
    for (let d = 0; d <= 30; d += 0.5) {
      times.push(t0 + d * DAY);
      values.push(-2 * Math.log(40 - d) + 2 * Math.log(40));
    }
    const r = await t.api<InverseVelocityAnswer>('POST', `${A}/inverseVelocity`, {
      token: predictor,
      body: { times, values, window: 1 },
    });
    expect(r.status).toBe(Status.ok);
    expect(r.data.decisionSupport).toBe(true);
    expect(r.data.applicable).toBe(true);
    expect(Math.abs(r.data.failureTime! - (t0 + 40 * DAY))).toBeLessThan(0.1 * DAY);
    expect(r.data.velocities).toHaveLength(times.length - 1);
    expect(r.data.line.length).toBeGreaterThan(10);

    const flat = await t.api<InverseVelocityAnswer>('POST', `${A}/inverseVelocity`, {
      token: predictor,
      body: { times: times.slice(0, 20), values: times.slice(0, 20).map((_, i) => 10 * Math.sqrt(i + 1)) },
    });
    expect(flat.status).toBe(Status.ok);
    expect(flat.data.applicable).toBe(false);
    expect(flat.data.reason).toBe('notAccelerating');
    expect(flat.data.reasonText).toBe(
      'Not applicable: the movement is not accelerating (inverse velocity is not decreasing)',
    );
    expect(flat.data.window).toBe(3);
  });

  it('refuses bad inverse-velocity input with a translated error', async () => {
    const r1 = await t.api('POST', `${A}/inverseVelocity`, {
      token: predictor,
      body: { times: [1, 2, 3, 4, 5, 6], values: [1, 2, 3, 4, 5] },
    });
    expect(r1.status).toBe(Status.invalid);
    expect(r1.info).toBe('times has 6 values but values has 5; they must match');
    const r2 = await t.api('POST', `${A}/inverseVelocity`, {
      token: predictor,
      body: { times: [1, 2, 3, 3, 5, 6], values: [1, 2, 3, 4, 5, 6], window: 1 },
    });
    expect(r2.info).toBe('times must be strictly increasing (item 3)');
    const r3 = await t.api('POST', `${A}/inverseVelocity`, {
      token: predictor,
      lang: 'zh',
      body: { times: [1, 2, 3, 4, 5], values: [1, 2, 3, 4, 5] },
    });
    expect(r3.status).toBe(Status.invalid);
    expect(r3.info).toBe('至少需要 6 个点（收到 5 个）');
  });

  it('needs the monitor:predict permission and stores nothing', async () => {
    const count = async () =>
      Number(
        (
          await t.db.k
            .selectFrom('audit_log')
            .select((e) => e.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const before = await count();
    const body = { data: [1, 2, 3, 4], sampleNum: 4, predictNum: 1 };
    for (const path of ['getPrediction', 'gmPrediction', 'inverseVelocity']) {
      const r = await t.api('POST', `${A}/${path}`, { token: viewer, body });
      expect(r.status).toBe(Status.noPermission);
      const anon = await t.api('POST', `${A}/${path}`, { body });
      expect(anon.status).toBe(Status.notLoggedIn);
    }
    const ok = await t.api('POST', `${A}/getPrediction`, { token: admin, body });
    expect(ok.status).toBe(Status.ok);
    expect(await count()).toBe(before);
  });
});
