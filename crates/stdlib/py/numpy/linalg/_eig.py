"""`np.linalg.eig` of a general real matrix, by the steps LAPACK's dgeev
takes, so that eigenvalues come out in NumPy's order and eigenvectors with
NumPy's signs: dgebal's permutations (isolated eigenvalues moved to the
ends; its power-of-two scaling is left out), dgehd2's Householder
reduction to Hessenberg form, dlahqr's double-shift QR sweeps with its
deflation test and exceptional shifts, dlanv2's standardisation of a 2x2
block, dtrevc's back substitution and dgebak's undoing of the
permutations. Python floats over one small matrix at a time.

Complex eigenvalues need complex arrays, which gradscope's numpy lacks:
such a matrix raises NotImplementedError saying so.
"""

import math as _math

_ULP = 2.220446049250313e-16
_SAFMIN = 2.2250738585072014e-308
_SMLNUM = _SAFMIN / _ULP


def _sign(a, b):
    """Fortran's SIGN(a, b): |a| with b's sign (+ for b = 0)."""
    return abs(a) if b >= 0 else -abs(a)


def _balance(a, n):
    """dgebal's permutation step: (lo, hi, where each isolated row went)."""
    perm = list(range(n))

    def swap(i, j, lo):
        if i == j:
            return
        for r in a:
            r[i], r[j] = r[j], r[i]
        a[i][lo:], a[j][lo:] = a[j][lo:], a[i][lo:]

    lo, hi = 0, n - 1
    moved = True
    while moved and hi >= 0:
        moved = False
        for i in range(hi, -1, -1):
            if all(a[i][j] == 0.0 for j in range(hi + 1) if j != i):
                perm[hi] = i
                swap(i, hi, lo)
                if hi == 0:
                    return 0, 0, perm
                hi -= 1
                moved = True
                break
    moved = True
    while moved:
        moved = False
        for j in range(lo, hi + 1):
            if all(a[i][j] == 0.0 for i in range(lo, hi + 1) if i != j):
                perm[lo] = j
                swap(j, lo, lo)
                lo += 1
                moved = True
                break
    return lo, hi, perm


def _larfg(alpha, x):
    """dlarfg: (beta, tau, v) with (I - tau [1 v][1 v]^T) [alpha x] = [beta 0]."""
    xnorm = _math.sqrt(sum(t * t for t in x))
    if xnorm == 0.0:
        return alpha, 0.0, [0.0] * len(x)
    beta = -_sign(_math.hypot(alpha, xnorm), alpha)
    tau = (beta - alpha) / beta
    scale = 1.0 / (alpha - beta)
    return beta, tau, [t * scale for t in x]


def _hessenberg(a, z, n, lo, hi):
    """dgehd2 with dorghr's Q accumulated into z (z <- z Q)."""
    for i in range(lo, hi - 1):
        beta, tau, v = _larfg(a[i + 1][i], [a[r][i] for r in range(i + 2, hi + 1)])
        a[i + 1][i] = beta
        for r in range(i + 2, hi + 1):
            a[r][i] = 0.0
        if tau == 0.0:
            continue
        u = [1.0] + v
        rows = range(i + 1, hi + 1)
        for r in range(hi + 1):
            s = sum(a[r][c] * u[k] for k, c in enumerate(rows))
            for k, c in enumerate(rows):
                a[r][c] -= tau * s * u[k]
        for c in range(i + 1, n):
            s = sum(a[r][c] * u[k] for k, r in enumerate(rows))
            for k, r in enumerate(rows):
                a[r][c] -= tau * s * u[k]
        for r in range(n):
            s = sum(z[r][c] * u[k] for k, c in enumerate(rows))
            for k, c in enumerate(rows):
                z[r][c] -= tau * s * u[k]


def _lanv2(a, b, c, d):
    """dlanv2 for a 2x2 block with real eigenvalues: (a, b, c, d, cs, sn),
    or None when its eigenvalues are complex."""
    if c == 0.0:
        return a, b, c, d, 1.0, 0.0
    if b == 0.0:
        return d, -c, 0.0, a, 0.0, 1.0
    if a - d == 0.0 and (b >= 0) != (c >= 0):
        return None
    p = 0.5 * (a - d)
    bcmax = max(abs(b), abs(c))
    bcmis = min(abs(b), abs(c)) * _sign(1.0, b) * _sign(1.0, c)
    scale = max(abs(p), bcmax)
    z = p / scale * p + bcmax / scale * bcmis
    if z >= 4.0 * _ULP:
        z = p + _sign(_math.sqrt(scale) * _math.sqrt(z), p)
        a = d + z
        d = d - bcmax / z * bcmis
        tau = _math.hypot(c, z)
        return a, b - c, 0.0, d, z / tau, c / tau
    sigma = b + c
    tau = _math.hypot(sigma, p + p)
    cs = _math.sqrt(0.5 * (1.0 + abs(sigma) / tau))
    sn = -(p / (tau * cs)) * _sign(1.0, sigma)
    aa, bb = a * cs + b * sn, -a * sn + b * cs
    cc, dd = c * cs + d * sn, -c * sn + d * cs
    a, b = aa * cs + cc * sn, bb * cs + dd * sn
    c, d = -aa * sn + cc * cs, -bb * sn + dd * cs
    temp = 0.5 * (a + d)
    a = d = temp
    if c != 0.0 and b != 0.0 and (b >= 0) == (c >= 0):
        sab, sac = _math.sqrt(abs(b)), _math.sqrt(abs(c))
        p = _sign(sab * sac, c)
        tau = 1.0 / _math.sqrt(abs(b + c))
        a, d = temp + p, temp - p
        b -= c
        c = 0.0
        cs1, sn1 = sab * tau, sac * tau
        cs, sn = cs * cs1 - sn * sn1, cs * sn1 + sn * cs1
        return a, b, c, d, cs, sn
    if c != 0.0:
        return None
    return a, b, c, d, cs, sn


def _rot(x, y, cs, sn):
    return [cs * p + sn * q for p, q in zip(x, y)], [cs * q - sn * p for p, q in zip(x, y)]


def _complex():
    return NotImplementedError("this matrix has complex eigenvalues, and gradscope's numpy has no complex arrays")


def _schur(h, z, n, lo, hi):
    """dlahqr on the Hessenberg h (rows lo..hi active): h becomes upper
    triangular, z accumulates the rotations."""
    itmax = 30 * max(10, hi - lo + 1)
    kdefl = 0
    i = hi
    while i >= lo:
        l_ = lo
        converged = False
        for its in range(itmax + 1):
            k = i
            while k > l_:
                if abs(h[k][k - 1]) <= _SMLNUM:
                    break
                tst = abs(h[k - 1][k - 1]) + abs(h[k][k])
                if tst == 0.0:
                    if k - 2 >= lo:
                        tst += abs(h[k - 1][k - 2])
                    if k + 1 <= hi:
                        tst += abs(h[k + 1][k])
                if abs(h[k][k - 1]) <= _ULP * tst:
                    ab = max(abs(h[k][k - 1]), abs(h[k - 1][k]))
                    ba = min(abs(h[k][k - 1]), abs(h[k - 1][k]))
                    aa = max(abs(h[k][k]), abs(h[k - 1][k - 1] - h[k][k]))
                    bb = min(abs(h[k][k]), abs(h[k - 1][k - 1] - h[k][k]))
                    s = aa + ab
                    if ba * (ab / s) <= max(_SMLNUM, _ULP * (bb * (aa / s))):
                        break
                k -= 1
            l_ = k
            if l_ > lo:
                h[l_][l_ - 1] = 0.0
            if l_ >= i - 1:
                converged = True
                break
            kdefl += 1
            if kdefl % 20 == 0:
                s = abs(h[i][i - 1]) + abs(h[i - 1][i - 2])
                h11 = 0.75 * s + h[i][i]
                h12, h21, h22 = -0.4375 * s, s, h11
            elif kdefl % 10 == 0:
                s = abs(h[l_ + 1][l_]) + abs(h[l_ + 2][l_ + 1])
                h11 = 0.75 * s + h[l_][l_]
                h12, h21, h22 = -0.4375 * s, s, h11
            else:
                h11, h21, h12, h22 = h[i - 1][i - 1], h[i][i - 1], h[i - 1][i], h[i][i]
            s = abs(h11) + abs(h12) + abs(h21) + abs(h22)
            if s == 0.0:
                rt1r = rt1i = rt2r = rt2i = 0.0
            else:
                h11, h21, h12, h22 = h11 / s, h21 / s, h12 / s, h22 / s
                tr = (h11 + h22) / 2.0
                det = (h11 - tr) * (h22 - tr) - h12 * h21
                rtdisc = _math.sqrt(abs(det))
                if det >= 0.0:
                    rt1r = rt2r = tr * s
                    rt1i = rtdisc * s
                    rt2i = -rt1i
                else:
                    rt1r, rt2r = tr + rtdisc, tr - rtdisc
                    if abs(rt1r - h22) <= abs(rt2r - h22):
                        rt1r = rt2r = rt1r * s
                    else:
                        rt1r = rt2r = rt2r * s
                    rt1i = rt2i = 0.0
            m = i - 2
            while True:
                h21s = h[m + 1][m]
                s = abs(h[m][m] - rt2r) + abs(rt2i) + abs(h21s)
                h21s = h[m + 1][m] / s
                v = [h21s * h[m][m + 1] + (h[m][m] - rt1r) * ((h[m][m] - rt2r) / s) - rt1i * (rt2i / s),
                     h21s * (h[m][m] + h[m + 1][m + 1] - rt1r - rt2r), h21s * h[m + 2][m + 1]]
                s = abs(v[0]) + abs(v[1]) + abs(v[2])
                v = [t / s for t in v]
                if m == l_:
                    break
                h00 = abs(h[m][m - 1]) * (abs(v[1]) + abs(v[2]))
                h11 = abs(v[0]) * (abs(h[m - 1][m - 1]) + abs(h[m][m]) + abs(h[m + 1][m + 1]))
                if h00 <= _ULP * h11:
                    break
                m -= 1
            for k in range(m, i):
                nr = min(3, i - k + 1)
                if k > m:
                    v = [h[k + r][k - 1] for r in range(nr)]
                beta, t1, rest = _larfg(v[0], v[1:nr])
                if k > m:
                    h[k][k - 1] = beta
                    h[k + 1][k - 1] = 0.0
                    if k < i - 1:
                        h[k + 2][k - 1] = 0.0
                elif m > l_:
                    h[k][k - 1] *= 1.0 - t1
                u = [1.0] + rest
                ts = [t1 * x for x in u]
                for j in range(k, n):
                    s = sum(u[r] * h[k + r][j] for r in range(nr))
                    for r in range(nr):
                        h[k + r][j] -= s * ts[r]
                for j in range(0, min(k + 3, i) + 1):
                    s = sum(u[r] * h[j][k + r] for r in range(nr))
                    for r in range(nr):
                        h[j][k + r] -= s * ts[r]
                for j in range(n):
                    s = sum(u[r] * z[j][k + r] for r in range(nr))
                    for r in range(nr):
                        z[j][k + r] -= s * ts[r]
        if not converged:
            raise _NoConvergence()
        if l_ == i - 1:
            std = _lanv2(h[i - 1][i - 1], h[i - 1][i], h[i][i - 1], h[i][i])
            if std is None:
                raise _complex()
            h[i - 1][i - 1], h[i - 1][i], h[i][i - 1], h[i][i], cs, sn = std
            if i < n - 1:
                h[i - 1][i + 1:], h[i][i + 1:] = _rot(h[i - 1][i + 1:], h[i][i + 1:], cs, sn)
            col_a, col_b = _rot([h[r][i - 1] for r in range(i - 1)], [h[r][i] for r in range(i - 1)], cs, sn)
            for r in range(i - 1):
                h[r][i - 1], h[r][i] = col_a[r], col_b[r]
            col_a, col_b = _rot([z[r][i - 1] for r in range(n)], [z[r][i] for r in range(n)], cs, sn)
            for r in range(n):
                z[r][i - 1], z[r][i] = col_a[r], col_b[r]
        kdefl = 0
        i = l_ - 1


class _NoConvergence(Exception):
    pass


def eig(rows, vectors=True):
    """(eigenvalues, eigenvector rows or None) of the square matrix `rows`."""
    n = len(rows)
    a = [list(map(float, r)) for r in rows]
    lo, hi, perm = _balance(a, n)
    z = [[1.0 if i == j else 0.0 for j in range(n)] for i in range(n)]
    _hessenberg(a, z, n, lo, hi)
    for i in range(n):
        for j in range(i - 1):
            a[i][j] = 0.0
    try:
        _schur(a, z, n, lo, hi)
    except _NoConvergence:
        return None, None
    w = [a[i][i] for i in range(n)]
    if not vectors:
        return w, None
    cols = []
    for ki in range(n):
        wr = w[ki]
        smin = max(_ULP * abs(wr), _SMLNUM)
        x = [0.0] * n
        x[ki] = 1.0
        work = [-a[k][ki] for k in range(ki)]
        for j in range(ki - 1, -1, -1):
            d = a[j][j] - wr
            if abs(d) < smin:
                d = smin
            x[j] = work[j] / d
            for k in range(j):
                work[k] -= x[j] * a[k][j]
        v = [sum(z[r][k] * x[k] for k in range(ki + 1)) for r in range(n)]
        big = max(abs(t) for t in v)
        v = [t / big for t in v]
        norm = _math.sqrt(sum(t * t for t in v))
        cols.append([t / norm for t in v])
    vr = [[cols[j][i] for j in range(n)] for i in range(n)]
    for ii in range(n):
        i = ii
        if lo <= i <= hi:
            continue
        if i < lo:
            i = lo - 1 - ii
        k = perm[i]
        if k != i:
            vr[i], vr[k] = vr[k], vr[i]
    return w, vr
