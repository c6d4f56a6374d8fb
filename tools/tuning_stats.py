#!/usr/bin/env python3
"""How the games of some generations of a `kibitz tune-policy` log ended, as one row of the
table in docs/BENCHMARKS.md ("Checking readings by playing on"):

    python3 tools/tuning_stats.py RUN.log FIRST LAST

| FIRST-LAST | games | agreement | rule | resignation | mate | offers | offers before move 10 |
median first offer (move) | games a refuted reading decided (of those with a reading played on) |
"""
import json,sys,collections
if len(sys.argv) != 4:
    sys.exit("usage: tuning_stats.py RUN.log FIRST LAST")
path=sys.argv[1]; a=int(sys.argv[2]); b=int(sys.argv[3])
gens=[]
for number, l in enumerate(open(path), 1):
    try:
        gens.append(json.loads(l))
    except json.JSONDecodeError:
        print(f"{path}:{number}: not a JSON line, left out (a torn last line?)", file=sys.stderr)
gens=gens[1:]
gens=[g for g in gens if a<=g['generation']<=b]
c=collections.Counter(); n=0; offers=early=0; firsts=[]; ref=chk=0
for g in gens:
    for x in g['games']:
        n+=1; f=x['finish']; c[f['how']]+=1
        offers+=len(f['offers']); early+=sum(1 for o in f['offers'] if o['move_number']<10)
        if f['offers']: firsts.append(f['offers'][0]['move_number'])
        chk+= 'playout' in f or any('playout' in o for o in f['offers'])
        ref+= x['rule'] in ('agreement-refuted','resignation-refuted','offer-refuted','decline-refuted')
if n == 0:
    sys.exit(f"{path}: no games in generations {a}-{b}")
firsts.sort()
p=lambda k: f"{100*c[k]/n:.0f}%"
print(f"| {a}-{b} | {n} | {p('agreement')} | {p('rule')} | {p('resignation')} | {p('mate')} | {offers} | {early} | {firsts[len(firsts)//2] if firsts else '-'} | {ref} of {chk} |")
