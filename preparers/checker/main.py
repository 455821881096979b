

# ---- entry point ----

def evaluate(env, check):
    ok, observed, _ = evaluate_traced(env, check)
    return ok, observed


def evaluate_traced(env, check):
    """A check's verdict, and whether it could not be graded at all (an unknown kind, an exception)."""
    fn = KINDS.get(check.get('kind'))
    if fn is None:
        return False, {'error': 'this checker does not know check kind %s' % check.get('kind')}, True
    try:
        ok, observed = fn(env, check)
        return bool(ok), observed, False
    except Exception as e:  # a check that cannot read its file fails with the reason
        return False, {'error': str(e)}, True


def verdict_line(env, checks):
    """What the harness's command prints: PASS, or the first failing check (no newline: OSWorld's
    exact_match compares the command's whole stdout)."""
    for i, c in enumerate(checks):
        ok, observed = evaluate(env, c)
        if not ok:
            seen = json.dumps(observed, ensure_ascii=True, default=str)
            return 'FAIL #%d %s %s' % (i + 1, c.get('kind'), seen[:400])
    return 'PASS'


def read_checks_doc(path):
    """A checks.json as a dict with its `checks` (and `checkpoints`, when the export wrote them),
    or the error that says why it cannot be read."""
    try:
        with open(path, encoding='utf-8') as f:
            doc = json.load(f)
        if not isinstance(doc.get('checks'), list):
            raise ValueError('it has no list of checks')
        return doc, None
    except Exception as e:
        return None, 'cannot read %s: %s' % (path, e)


def read_checks(path):
    """The checks of a checks.json, or the FAIL line that says why they cannot be read."""
    doc, error = read_checks_doc(path)
    if doc is None:
        return None, 'FAIL #0 - %s' % json.dumps({'error': error})
    return doc['checks'], None


# ---- partial credit (taskpack/checkpoints.ts defines it; the two must agree) ----

def checkpoints_of(doc):
    """The task's checkpoints: as the export wrote them, else one per check."""
    checks = doc['checks']
    given = doc.get('checkpoints')
    if isinstance(given, list) and given:
        return given
    return [{'name': 'check #%d %s' % (i + 1, c.get('kind')), 'weight': 1, 'checks': [i], 'guard': False}
            for i, c in enumerate(checks)]


def round_score(x):
    # floor(x*1e6 + 0.5)/1e6, the same float arithmetic as roundScore in TypeScript.
    return math.floor(x * 1e6 + 0.5) / 1e6


def score_doc(env, doc):
    """Every check evaluated once, then each checkpoint: passed when all its checks pass. The score
    is the weight of the passed progress checkpoints over the weight of all of them, 0 when a guard
    checkpoint (one the untouched state passes: nothing else changed) fails."""
    checks = doc['checks']
    traced = [evaluate_traced(env, c) for c in checks]
    verdicts = [(ok, observed) for ok, observed, _ in traced]
    # Errors are checks that could not be graded (the check failed too); a plain failure is no error.
    errors = ['check #%d %s: %s' % (i + 1, checks[i].get('kind'), observed.get('error'))
              for i, (_, observed, raised) in enumerate(traced) if raised]
    rows = []
    for cp in checkpoints_of(doc):
        idx = [k for k in cp.get('checks', []) if isinstance(k, int) and 0 <= k < len(checks)]
        ok = bool(idx) and all(verdicts[k][0] for k in idx)
        rows.append({'name': str(cp.get('name')), 'pass': ok, 'weight': cp.get('weight', 1),
                     'guard': bool(cp.get('guard'))})
    progress = [r for r in rows if not r['guard']]
    total = sum(r['weight'] for r in progress)
    earned = sum(r['weight'] for r in progress if r['pass'])
    if any(r['guard'] and not r['pass'] for r in rows):
        score = 0
    elif total == 0:
        score = 1
    else:
        score = round_score(earned / total)
    return {'score': score, 'passed': sum(1 for r in progress if r['pass']), 'total': len(progress),
            'checkpoints': rows, 'errors': errors}


def subscores_doc(scored):
    """CUA-Gym's convention: {overall_score, subscores: {checkpoint: 0|1}, errors}."""
    return {'overall_score': scored['score'],
            'subscores': dict((r['name'], 1.0 if r['pass'] else 0.0) for r in scored['checkpoints']),
            'errors': scored['errors']}


def batch_job(job):
    """One state of a batch: every check's verdict (`checks`), the harness's line for a shipped
    checks file read under that home (`checksFile`), exactly as the single run would print it, or
    both (one Env, so each file is parsed once)."""
    env = Env(job['home'])
    verdicts = None
    if 'checks' in job:
        verdicts = [dict(zip(('pass', 'observed'), evaluate(env, c))) for c in job['checks']]
    if 'checksFile' not in job:
        return verdicts
    checks, error = read_checks(job['checksFile'])
    line = error if checks is None else verdict_line(env, checks)
    return line if verdicts is None else {'verdicts': verdicts, 'line': line}


def main(argv):
    args = [a for a in argv if not a.startswith('--')]
    home = os.environ.get('HOME') or os.path.expanduser('~')
    if '--home' in argv:
        home = argv[argv.index('--home') + 1]
        args = [a for a in args if a != home]
    if '--kinds' in argv:
        print(json.dumps(sorted(KINDS)))
        return
    if '--batch' in argv:
        # Several states in one process (the conformance test, the export gate): a list of jobs, see batch_job.
        with open(args[0], encoding='utf-8') as f:
            jobs = json.load(f)
        print(json.dumps([batch_job(job) for job in jobs], ensure_ascii=False, default=str))
        return
    if not args:
        print('FAIL #0 - {"error": "usage: forge_check.py CHECKS.json [--home DIR] [--all | --score | --subscores]"}')
        return
    if '--score' in argv or '--subscores' in argv:
        # Partial credit: every checkpoint's verdict and the score, one JSON object.
        doc, error = read_checks_doc(args[0])
        if doc is None:
            scored = {'score': 0, 'passed': 0, 'total': 0, 'checkpoints': [], 'errors': [error]}
        else:
            scored = score_doc(Env(home), doc)
        out = subscores_doc(scored) if '--subscores' in argv else scored
        print(json.dumps(out, ensure_ascii=False, default=str))
        return
    checks, error = read_checks(args[0])
    if checks is None:
        print(error)
        return
    env = Env(home)
    if '--all' in argv:
        out = []
        for c in checks:
            ok, observed = evaluate(env, c)
            out.append({'kind': c.get('kind'), 'pass': ok, 'observed': observed})
        print(json.dumps(out, ensure_ascii=False, default=str))
        return
    sys.stdout.write(verdict_line(env, checks))


if __name__ == '__main__':
    main(sys.argv[1:])
