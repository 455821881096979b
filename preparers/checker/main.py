

# ---- entry point ----

def evaluate(env, check):
    fn = KINDS.get(check.get('kind'))
    if fn is None:
        return False, {'error': 'this checker does not know check kind %s' % check.get('kind')}
    try:
        ok, observed = fn(env, check)
        return bool(ok), observed
    except Exception as e:  # a check that cannot read its file fails with the reason
        return False, {'error': str(e)}


def verdict_line(env, checks):
    """What the harness's command prints: PASS, or the first failing check (no newline: OSWorld's
    exact_match compares the command's whole stdout)."""
    for i, c in enumerate(checks):
        ok, observed = evaluate(env, c)
        if not ok:
            seen = json.dumps(observed, ensure_ascii=True, default=str)
            return 'FAIL #%d %s %s' % (i + 1, c.get('kind'), seen[:400])
    return 'PASS'


def read_checks(path):
    """The checks of a checks.json, or the FAIL line that says why they cannot be read."""
    try:
        with open(path, encoding='utf-8') as f:
            return json.load(f)['checks'], None
    except Exception as e:
        return None, 'FAIL #0 - %s' % json.dumps({'error': 'cannot read %s: %s' % (path, e)})


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
        print('FAIL #0 - {"error": "usage: forge_check.py CHECKS.json [--home DIR] [--all]"}')
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
