import { it } from 'vitest';
import { mock } from './helpers.js';
it('smoke', async () => {
  const m = mock();
  const reqs: [string, string, unknown?, string?][] = [['GET','/me'],['GET','/admins/814860'],['PUT','/admins/1295/away',{away_mode_enabled:true,away_mode_reassign:false, id: 1295}],['GET','/teams'],['GET','/teams/1000001'],['GET','/notes?id=5714dd359a3fd47136000001'],['POST','/notes',{body:'hello',user:{email:'ada@example.com'}}],['GET','/notes?user_id=ada-1&per_page=2'],['GET','/notes/1001'], ['GET','/me', undefined, 'test_abc']];
  for (const [meth, p, body, token] of reqs) {
    const r = await m.call(meth, p, { body, ...(token ? { token } : {}) });
    console.log(meth, p, r.status, r.text.slice(0, 500));
  }
});
