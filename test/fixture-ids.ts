// Ids of the canonical records in fixtures/demo.json that the tests refer to.

export const ADA = '5714dd359a3fd47136000001';
export const GRACE = '5714dd359a3fd47136000002';
export const ALAN = '5714dd359a3fd47136000003';
export const LINUS = '5714dd359a3fd47136000004';
export const SHARED_A = '5714dd359a3fd47136000005';
export const LEAD = '5714dd359a3fd47136000007';
export const LEAD_USER_ID = '8a88a590-e1c3-41e2-a502-e0649dbf721c';
export const VISITOR = '5714dd359a3fd47136000009';
export const VISITOR_USER_ID = '3f0b3a6c-7f6d-4d5e-9d2b-7a1c5e8f9a01';
export const VISITOR_2 = '5714dd359a3fd4713600000a';
export const ACME = '5714dd359a3fd47136000101';
export const INITECH = '5714dd359a3fd47136000103';
/** Ada and Grace, assigned to admin 814860, 4 parts. */
export const GROUP = '5714dd359a3fd47136000501';
