// A payer's browser reduced to HTTP, for tests: opens a gateway's challenge page, submits a
// decision, and reads where the gateway sends the payer back.

/** Answers the challenge page; returns the address the gateway sends the payer back to (absolute), if any. */
export async function answerChallengePageAt(
  redirectUrl: string,
  decision: 'approve' | 'decline',
): Promise<string | null> {
  const page = await fetch(redirectUrl);
  const html = await page.text();
  const action = /<form method="post" action="([^"]+)"/.exec(html)?.[1];
  const target = action ? new URL(action.replace(/&#38;/g, '&'), redirectUrl).toString() : redirectUrl;
  const answer = await fetch(target, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: `decision=${decision}`,
    redirect: 'manual',
  });
  await answer.body?.cancel();
  const location = answer.headers.get('location');
  return location ? new URL(location, redirectUrl).toString() : null;
}

/** Answers the challenge page; returns the query parameters the gateway sent the payer back with. */
export async function answerChallengePage(
  redirectUrl: string,
  decision: 'approve' | 'decline',
): Promise<Record<string, string>> {
  const location = await answerChallengePageAt(redirectUrl, decision);
  return location ? Object.fromEntries(new URL(location).searchParams) : {};
}
