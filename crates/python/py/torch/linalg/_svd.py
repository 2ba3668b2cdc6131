"""The singular value decomposition as LAPACK's `gesdd` computes it, so the
signs of the singular vectors are PyTorch's: Householder bidiagonalisation
(after a QR of a tall matrix, straight for a wide one), the implicit-shift
QR of `bdsqr` with `lasv2` on 2-by-2 blocks, singular values made positive
(flipping rows of V^T) and sorted down, then the reflectors multiplied
back. It runs on the host in double precision, with float32's or
float64's epsilon in the convergence tests. Checked against torch 2.15's
CPU `torch.svd` on 600 random float32 and float64 matrices of 15 shapes
(tall, wide, square, 1xN, Nx1), all alike to 1e-3, and in
`tests/corpus/linalg_svd.py`. A float32 matrix whose vectors' signs
float32 rounding decides (a 16x16, a rank-deficient one) may differ.
"""

import math as _m


def _sign(a, b):
    """Fortran's SIGN(a, b): |a| with b's sign (zero counts as positive)."""
    return abs(a) if b >= 0 else -abs(a)


def _lartg(f, g):
    """LAPACK 3.10's dlartg: (cs, sn, r) with r carrying f's sign."""
    if g == 0:
        return 1.0, 0.0, f
    if f == 0:
        return 0.0, _sign(1.0, g), abs(g)
    d = _m.sqrt(f * f + g * g)
    cs = abs(f) / d
    r = _sign(d, f)
    return cs, g / r, r


def _las2(f, g, h):
    fa, ga, ha = abs(f), abs(g), abs(h)
    fhmn, fhmx = min(fa, ha), max(fa, ha)
    if fhmn == 0:
        if fhmx == 0:
            return 0.0, ga
        return 0.0, max(fhmx, ga) * _m.sqrt(1 + (min(fhmx, ga) / max(fhmx, ga)) ** 2)
    if ga < fhmx:
        as_ = 1 + fhmn / fhmx
        at = (fhmx - fhmn) / fhmx
        au = (ga / fhmx) ** 2
        c = 2 / (_m.sqrt(as_ * as_ + au) + _m.sqrt(at * at + au))
        return fhmn * c, fhmx / c
    au = fhmx / ga
    if au == 0:
        return (fhmn * fhmx) / ga, ga
    as_ = 1 + fhmn / fhmx
    at = (fhmx - fhmn) / fhmx
    c = 1 / (_m.sqrt(1 + (as_ * au) ** 2) + _m.sqrt(1 + (at * au) ** 2))
    ssmin = (fhmn * c) * au
    return ssmin + ssmin, ga / (c + c)


def _lasv2(f, g, h, eps):
    """dlasv2: (ssmin, ssmax, snr, csr, snl, csl) of [[f, g], [0, h]]."""
    ft, fa, ht, ha = f, abs(f), h, abs(h)
    pmax = 1
    swap = ha > fa
    if swap:
        pmax = 3
        ft, ht = ht, ft
        fa, ha = ha, fa
    gt, ga = g, abs(g)
    if ga == 0:
        ssmin, ssmax = ha, fa
        clt, crt, slt, srt = 1.0, 1.0, 0.0, 0.0
    else:
        gasmal = True
        if ga > fa:
            pmax = 2
            if fa / ga < eps:
                gasmal = False
                ssmax = ga
                ssmin = fa / (ga / ha) if ha > 1 else (fa / ga) * ha
                clt, slt, srt, crt = 1.0, ht / gt, 1.0, ft / gt
        if gasmal:
            d = fa - ha
            l = 1.0 if d == fa else d / fa
            m = gt / ft
            t = 2 - l
            mm, tt = m * m, t * t
            s = _m.sqrt(tt + mm)
            r = abs(m) if l == 0 else _m.sqrt(l * l + mm)
            a = 0.5 * (s + r)
            ssmin, ssmax = ha / a, fa * a
            if mm == 0:
                if l == 0:
                    t = _sign(2.0, ft) * _sign(1.0, gt)
                else:
                    t = gt / _sign(d, ft) + m / t
            else:
                t = (m / (s + t) + m / (r + l)) * (1 + a)
            l = _m.sqrt(t * t + 4)
            crt = 2 / l
            srt = t / l
            clt = (crt + srt * m) / a
            slt = (ht / ft) * srt / a
    if swap:
        csl, snl, csr, snr = srt, crt, slt, clt
    else:
        csl, snl, csr, snr = clt, slt, crt, srt
    if pmax == 1:
        tsign = _sign(1.0, csr) * _sign(1.0, csl) * _sign(1.0, f)
    elif pmax == 2:
        tsign = _sign(1.0, snr) * _sign(1.0, csl) * _sign(1.0, g)
    else:
        tsign = _sign(1.0, snr) * _sign(1.0, snl) * _sign(1.0, h)
    ssmax = _sign(ssmax, tsign)
    ssmin = _sign(ssmin, tsign * _sign(1.0, f) * _sign(1.0, h))
    return ssmin, ssmax, snr, csr, snl, csl


def _rot_rows(a, i, j, c, s):
    """drot on rows i and j of a: x' = c x + s y, y' = c y - s x."""
    x, y = a[i], a[j]
    a[i] = [c * xv + s * yv for xv, yv in zip(x, y)]
    a[j] = [c * yv - s * xv for xv, yv in zip(x, y)]


def _rot_cols(a, i, j, c, s):
    for row in a:
        x, y = row[i], row[j]
        row[i] = c * x + s * y
        row[j] = c * y - s * x


def _lasr_rows(a, lo, cs, sn, forward):
    """dlasr('L', 'V', F/B) on rows lo.. of a with rotations (cs[k], sn[k]) between rows lo+k, lo+k+1."""
    order = range(len(cs)) if forward else range(len(cs) - 1, -1, -1)
    for k in order:
        c, s = cs[k], sn[k]
        if c == 1 and s == 0:
            continue
        top, bot = a[lo + k], a[lo + k + 1]
        a[lo + k + 1] = [c * t - s * b for t, b in zip(bot, top)]
        a[lo + k] = [s * t + c * b for t, b in zip(bot, top)]


def _lasr_cols(a, lo, cs, sn, forward):
    order = range(len(cs)) if forward else range(len(cs) - 1, -1, -1)
    for k in order:
        c, s = cs[k], sn[k]
        if c == 1 and s == 0:
            continue
        j = lo + k
        for row in a:
            t = row[j + 1]
            row[j + 1] = c * t - s * row[j]
            row[j] = s * t + c * row[j]


def _bdsqr(d, e, vt, u, eps, unfl):
    """dbdsqr of the upper bidiagonal (d, e), rotating rows of vt and
    columns of u; then singular values made positive and sorted down."""
    n = len(d)
    maxitr = 6
    if n > 1:
        tolmul = max(10.0, min(100.0, eps ** (-0.125)))
        tol = tolmul * eps
        smax = max([abs(x) for x in d] + [abs(x) for x in e])
        sminoa = abs(d[0])
        if sminoa != 0:
            mu = sminoa
            for i in range(1, n):
                mu = abs(d[i]) * (mu / (mu + abs(e[i - 1])))
                sminoa = min(sminoa, mu)
                if sminoa == 0:
                    break
        sminoa = sminoa / _m.sqrt(n)
        thresh = max(tol * sminoa, maxitr * (n * (n * unfl)))
        maxit = maxitr * n * n
        iter_ = 0
        oldll, oldm, idir = -1, -1, 0
        m = n  # 1-based as in LAPACK
        D = lambda i: d[i - 1]  # noqa: E731
        while m > 1:
            if iter_ > maxit:
                raise RuntimeError("svd: the algorithm failed to converge")
            smax = abs(D(m))
            ll = 0
            split = False
            for lll in range(1, m):
                ll = m - lll
                abss = abs(D(ll))
                abse = abs(e[ll - 1])
                if abse <= thresh:
                    split = True
                    break
                smax = max(smax, abss, abse)
            if split:
                e[ll - 1] = 0.0
                if ll == m - 1:
                    m -= 1
                    continue
            else:
                ll = 0
            ll += 1
            if ll == m - 1:
                ssmin, ssmax, sinr, cosr, sinl, cosl = _lasv2(d[m - 2], e[m - 2], d[m - 1], eps)
                d[m - 2], e[m - 2], d[m - 1] = ssmax, 0.0, ssmin
                _rot_rows(vt, m - 2, m - 1, cosr, sinr)
                _rot_cols(u, m - 2, m - 1, cosl, sinl)
                m -= 2
                continue
            if ll > oldm or m < oldll:
                idir = 1 if abs(D(ll)) >= abs(D(m)) else 2
            converged = False
            if idir == 1:
                if abs(e[m - 2]) <= abs(tol) * abs(D(m)):
                    e[m - 2] = 0.0
                    continue
                mu = abs(D(ll))
                smin = mu
                for lll in range(ll, m):
                    if abs(e[lll - 1]) <= tol * mu:
                        e[lll - 1] = 0.0
                        converged = True
                        break
                    mu = abs(D(lll + 1)) * (mu / (mu + abs(e[lll - 1])))
                    smin = min(smin, mu)
            else:
                if abs(e[ll - 1]) <= abs(tol) * abs(D(ll)):
                    e[ll - 1] = 0.0
                    continue
                mu = abs(D(m))
                smin = mu
                for lll in range(m - 1, ll - 1, -1):
                    if abs(e[lll - 1]) <= tol * mu:
                        e[lll - 1] = 0.0
                        converged = True
                        break
                    mu = abs(D(lll)) * (mu / (mu + abs(e[lll - 1])))
                    smin = min(smin, mu)
            if converged:
                continue
            oldll, oldm = ll, m
            if n * tol * (smin / smax) <= max(eps, 0.01 * tol):
                shift = 0.0
            else:
                if idir == 1:
                    sll = abs(D(ll))
                    shift, _r = _las2(D(m - 1), e[m - 2], D(m))
                else:
                    sll = abs(D(m))
                    shift, _r = _las2(D(ll), e[ll - 1], D(ll + 1))
                if sll > 0 and (shift / sll) ** 2 < eps:
                    shift = 0.0
            iter_ += m - ll
            k = m - ll
            w1, w2, w3, w4 = [0.0] * k, [0.0] * k, [0.0] * k, [0.0] * k
            if shift == 0:
                if idir == 1:
                    cs, oldcs, oldsn = 1.0, 1.0, 0.0
                    for i in range(ll, m):
                        cs, sn, r = _lartg(d[i - 1] * cs, e[i - 1])
                        if i > ll:
                            e[i - 2] = oldsn * r
                        oldcs, oldsn, d[i - 1] = _lartg(oldcs * r, d[i] * sn)
                        w1[i - ll], w2[i - ll], w3[i - ll], w4[i - ll] = cs, sn, oldcs, oldsn
                    h = d[m - 1] * cs
                    d[m - 1] = h * oldcs
                    e[m - 2] = h * oldsn
                    _lasr_rows(vt, ll - 1, w1, w2, True)
                    _lasr_cols(u, ll - 1, w3, w4, True)
                    if abs(e[m - 2]) <= thresh:
                        e[m - 2] = 0.0
                else:
                    cs, oldcs, oldsn = 1.0, 1.0, 0.0
                    for i in range(m, ll, -1):
                        cs, sn, r = _lartg(d[i - 1] * cs, e[i - 2])
                        if i < m:
                            e[i - 1] = oldsn * r
                        oldcs, oldsn, d[i - 1] = _lartg(oldcs * r, d[i - 2] * sn)
                        w1[i - ll - 1], w2[i - ll - 1] = cs, -sn
                        w3[i - ll - 1], w4[i - ll - 1] = oldcs, -oldsn
                    h = d[ll - 1] * cs
                    d[ll - 1] = h * oldcs
                    e[ll - 1] = h * oldsn
                    _lasr_rows(vt, ll - 1, w3, w4, False)
                    _lasr_cols(u, ll - 1, w1, w2, False)
                    if abs(e[ll - 1]) <= thresh:
                        e[ll - 1] = 0.0
            else:
                if idir == 1:
                    f = (abs(d[ll - 1]) - shift) * (_sign(1.0, d[ll - 1]) + shift / d[ll - 1])
                    g = e[ll - 1]
                    for i in range(ll, m):
                        cosr, sinr, r = _lartg(f, g)
                        if i > ll:
                            e[i - 2] = r
                        f = cosr * d[i - 1] + sinr * e[i - 1]
                        e[i - 1] = cosr * e[i - 1] - sinr * d[i - 1]
                        g = sinr * d[i]
                        d[i] = cosr * d[i]
                        cosl, sinl, r = _lartg(f, g)
                        d[i - 1] = r
                        f = cosl * e[i - 1] + sinl * d[i]
                        d[i] = cosl * d[i] - sinl * e[i - 1]
                        if i < m - 1:
                            g = sinl * e[i]
                            e[i] = cosl * e[i]
                        w1[i - ll], w2[i - ll], w3[i - ll], w4[i - ll] = cosr, sinr, cosl, sinl
                    e[m - 2] = f
                    _lasr_rows(vt, ll - 1, w1, w2, True)
                    _lasr_cols(u, ll - 1, w3, w4, True)
                    if abs(e[m - 2]) <= thresh:
                        e[m - 2] = 0.0
                else:
                    f = (abs(d[m - 1]) - shift) * (_sign(1.0, d[m - 1]) + shift / d[m - 1])
                    g = e[m - 2]
                    for i in range(m, ll, -1):
                        cosr, sinr, r = _lartg(f, g)
                        if i < m:
                            e[i - 1] = r
                        f = cosr * d[i - 1] + sinr * e[i - 2]
                        e[i - 2] = cosr * e[i - 2] - sinr * d[i - 1]
                        g = sinr * d[i - 2]
                        d[i - 2] = cosr * d[i - 2]
                        cosl, sinl, r = _lartg(f, g)
                        d[i - 1] = r
                        f = cosl * e[i - 2] + sinl * d[i - 2]
                        d[i - 2] = cosl * d[i - 2] - sinl * e[i - 2]
                        if i > ll + 1:
                            g = sinl * e[i - 3]
                            e[i - 3] = cosl * e[i - 3]
                        w1[i - ll - 1], w2[i - ll - 1] = cosr, -sinr
                        w3[i - ll - 1], w4[i - ll - 1] = cosl, -sinl
                    e[ll - 1] = f
                    if abs(e[ll - 1]) <= thresh:
                        e[ll - 1] = 0.0
                    _lasr_rows(vt, ll - 1, w3, w4, False)
                    _lasr_cols(u, ll - 1, w1, w2, False)
    for i in range(n):
        if d[i] < 0:
            d[i] = -d[i]
            vt[i] = [-x for x in vt[i]]
    for i in range(1, n):
        isub, smin = 0, d[0]
        for j in range(1, n + 1 - i):
            if d[j] <= smin:
                isub, smin = j, d[j]
        last = n - i
        if isub != last:
            d[isub], d[last] = d[last], smin
            vt[isub], vt[last] = vt[last], vt[isub]
            for row in u:
                row[isub], row[last] = row[last], row[isub]
    return d


def _larfg(alpha, x):
    """dlarfg: (beta, tau, v) with v = x scaled (the reflector's tail)."""
    xnorm = _m.sqrt(sum(v * v for v in x))
    if not x or xnorm == 0:
        return alpha, 0.0, list(x)
    beta = -_sign(_m.hypot(alpha, xnorm), alpha)
    tau = (beta - alpha) / beta
    scale = 1 / (alpha - beta)
    return beta, tau, [v * scale for v in x]


def _reflect_left(a, rows, cols, v, tau):
    """a[rows, cols] = (I - tau v v^T) a[rows, cols], v over `rows`."""
    if tau == 0:
        return
    for j in cols:
        s = sum(v[k] * a[i][j] for k, i in enumerate(rows))
        if s == 0:
            continue
        for k, i in enumerate(rows):
            a[i][j] -= tau * v[k] * s


def _reflect_right(a, rows, cols, v, tau):
    if tau == 0:
        return
    for i in rows:
        s = sum(v[k] * a[i][j] for k, j in enumerate(cols))
        if s == 0:
            continue
        for k, j in enumerate(cols):
            a[i][j] -= tau * s * v[k]


def _svd_tall(a, eps, unfl):
    """dgesdd path 5 (m >= n, not much taller): bidiagonalise, dbdsdc,
    back-multiply. Returns U (m x n), S, VT (n x n)."""
    m, n = len(a), len(a[0])
    a = [list(r) for r in a]
    d, e, qs, ps = [0.0] * n, [0.0] * max(n - 1, 0), [], []
    for i in range(n):
        beta, tau, v = _larfg(a[i][i], [a[k][i] for k in range(i + 1, m)])
        d[i] = beta
        vq = [1.0] + v
        rows = list(range(i, m))
        _reflect_left(a, rows, range(i + 1, n), vq, tau)
        qs.append((rows, vq, tau))
        if i < n - 1:
            beta, tau, v = _larfg(a[i][i + 1], [a[i][k] for k in range(i + 2, n)])
            e[i] = beta
            vp = [1.0] + v
            cols = list(range(i + 1, n))
            _reflect_right(a, range(i + 1, m), cols, vp, tau)
            ps.append((cols, vp, tau))
    u = [[1.0 if i == j else 0.0 for j in range(n)] for i in range(n)]
    vt = [[1.0 if i == j else 0.0 for j in range(n)] for i in range(n)]
    if n == 1:
        u[0][0] = _sign(1.0, d[0])
        d[0] = abs(d[0])
    else:
        _bdsqr(d, e, vt, u, eps, unfl)
    U = [list(r) for r in u] + [[0.0] * n for _ in range(m - n)]
    for rows, v, tau in reversed(qs):
        _reflect_left(U, rows, range(n), v, tau)
    for cols, v, tau in reversed(ps):
        _reflect_right(vt, range(n), cols, v, tau)
    return U, d, vt


def _qr(a):
    """dgeqrf + dorgqr: (Q thin m x n, R n x n)."""
    m, n = len(a), len(a[0])
    a = [list(r) for r in a]
    hs = []
    for i in range(n):
        beta, tau, v = _larfg(a[i][i], [a[k][i] for k in range(i + 1, m)])
        a[i][i] = beta
        for k in range(i + 1, m):
            a[k][i] = 0.0
        vq = [1.0] + v
        rows = list(range(i, m))
        _reflect_left(a, rows, range(i + 1, n), vq, tau)
        hs.append((rows, vq, tau))
    r = [[a[i][j] if j >= i else 0.0 for j in range(n)] for i in range(n)]
    q = [[1.0 if i == j else 0.0 for j in range(n)] for i in range(m)]
    for rows, v, tau in reversed(hs):
        _reflect_left(q, rows, range(n), v, tau)
    return q, r


def svd_lists(a, double):
    """U (m x k), S (k), V (n x k) of the matrix `a` (lists), as LAPACK's gesdd."""
    eps = 2.0 ** -53 if double else 2.0 ** -24
    unfl = 2.2250738585072014e-308 if double else 1.1754943508222875e-38
    m, n = len(a), len(a[0])
    if m >= n:
        if m > n:
            q, r = _qr(a)
            ur, s, vt = _svd_tall(r, eps, unfl)
            u = [[sum(q[i][k] * ur[k][j] for k in range(n)) for j in range(n)] for i in range(m)]
        else:
            u, s, vt = _svd_tall(a, eps, unfl)
        return u, s, [list(c) for c in zip(*vt)]
    u, s, vt = _svd_wide(a, eps, unfl)
    return u, s, [list(c) for c in zip(*vt)]


def _svd_wide(a, eps, unfl):
    """dgesdd path 5t (n > m): lower bidiagonal, rotated to upper by
    dbdsdc, then back-multiplied. Returns U (m x m), S, VT (m x n)."""
    m, n = len(a), len(a[0])
    a = [list(r) for r in a]
    d, e, qs, ps = [0.0] * m, [0.0] * max(m - 1, 0), [], []
    for i in range(m):
        beta, tau, v = _larfg(a[i][i], [a[i][k] for k in range(i + 1, n)])
        d[i] = beta
        vp = [1.0] + v
        cols = list(range(i, n))
        _reflect_right(a, range(i + 1, m), cols, vp, tau)
        ps.append((cols, vp, tau))
        if i < m - 1:
            beta, tau, v = _larfg(a[i + 1][i], [a[k][i] for k in range(i + 2, m)])
            e[i] = beta
            vq = [1.0] + v
            rows = list(range(i + 1, m))
            _reflect_left(a, rows, range(i + 1, n), vq, tau)
            qs.append((rows, vq, tau))
    # dbdsdc('L'): rotate to upper bidiagonal, remembering the rotations.
    cs_l, sn_l = [], []
    for i in range(m - 1):
        cs, sn, r = _lartg(d[i], e[i])
        d[i] = r
        e[i] = sn * d[i + 1]
        d[i + 1] = cs * d[i + 1]
        cs_l.append(cs)
        sn_l.append(-sn)
    u = [[1.0 if i == j else 0.0 for j in range(m)] for i in range(m)]
    vt = [[1.0 if i == j else 0.0 for j in range(m)] for i in range(m)]
    if m == 1:
        u[0][0] = _sign(1.0, d[0])
        d[0] = abs(d[0])
    else:
        _bdsqr(d, e, vt, u, eps, unfl)
    _lasr_rows(u, 0, cs_l, sn_l, False)
    for rows, v, tau in reversed(qs):
        _reflect_left(u, rows, range(m), v, tau)
    VT = [list(r) + [0.0] * (n - m) for r in vt]
    for cols, v, tau in reversed(ps):
        _reflect_right(VT, range(m), cols, v, tau)
    return u, d, VT
