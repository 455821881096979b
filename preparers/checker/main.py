

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
        # Several states in one process (the conformance test): [{"home": DIR, "checks": [...]}, ...].
        with open(args[0], encoding='utf-8') as f:
            jobs = json.load(f)
        out = []
        for job in jobs:
            env = Env(job['home'])
            out.append([dict(zip(('pass', 'observed'), evaluate(env, c))) for c in job['checks']])
        print(json.dumps(out, ensure_ascii=False, default=str))
        return
    if not args:
        print('FAIL #0 - {"error": "usage: forge_check.py CHECKS.json [--home DIR] [--all]"}')
        return
    try:
        with open(args[0], encoding='utf-8') as f:
            checks = json.load(f)['checks']
    except Exception as e:
        print('FAIL #0 - %s' % json.dumps({'error': 'cannot read %s: %s' % (args[0], e)}))
        return
    env = Env(home)
    if '--all' in argv:
        out = []
        for c in checks:
            ok, observed = evaluate(env, c)
            out.append({'kind': c.get('kind'), 'pass': ok, 'observed': observed})
        print(json.dumps(out, ensure_ascii=False, default=str))
        return
    for i, c in enumerate(checks):
        ok, observed = evaluate(env, c)
        if not ok:
            seen = json.dumps(observed, ensure_ascii=True, default=str)
            # No newline: OSWorld's exact_match compares the command's whole stdout.
            sys.stdout.write('FAIL #%d %s %s' % (i + 1, c.get('kind'), seen[:400]))
            return
    sys.stdout.write('PASS')


if __name__ == '__main__':
    main(sys.argv[1:])
