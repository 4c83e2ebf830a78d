import { expect, test } from './golden.mjs';

test('summarises a review', async ({ request }) => {
  // Replayed from e2e/goldens/summary/summarises-a-review.json.
  const response = await request.get('/api/summary?text=The%20battery%20lasts%20two%20days%20and%20the%20screen%20is%20bright');
  expect(response.ok()).toBe(true);
  expect((await response.json()).summary).toBeTruthy();
});
