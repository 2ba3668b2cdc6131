"""`torch.einsum`, as a broadcast product of the operands (each permuted and
unsqueezed onto one order of every subscript) summed over the subscripts the
output drops. Values and gradients are PyTorch's; the graph shows these
pieces (Permute, View, Mul, Sum) where PyTorch's contraction path records
Permute, View and Bmm nodes.
"""

import _gradscope as _C

_LETTERS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"


def einsum(equation, *operands):
    if len(operands) == 1 and isinstance(operands[0], (list, tuple)):
        operands = tuple(operands[0])
    equation = equation.replace(" ", "")
    if "->" in equation:
        inputs, output = equation.split("->")
        explicit = True
    else:
        inputs, output, explicit = equation, "", False
    terms = inputs.split(",")
    if len(terms) != len(operands):
        raise RuntimeError("einsum(): more operands were provided than specified in the equation"
                           if len(operands) > len(terms) else
                           "einsum(): fewer operands were provided than specified in the equation")
    # '...' stands for the leading dims each operand has beyond its letters:
    # give them letters of their own, right-aligned across operands.
    used = set(c for c in equation if c.isalpha())
    spare = [c for c in _LETTERS if c not in used]
    ellipsis_rank = 0
    for term, x in zip(terms, operands):
        if "..." in term:
            ellipsis_rank = max(ellipsis_rank, x.dim() - len(term.replace("...", "")))
    ell = spare[:ellipsis_rank]
    subscripts = []
    for term, x in zip(terms, operands):
        if "..." in term:
            own = x.dim() - len(term.replace("...", ""))
            term = term.replace("...", "".join(ell[ellipsis_rank - own:]))
        if len(term) != x.dim():
            raise RuntimeError(
                f"einsum(): the number of subscripts in the equation ({len(term)}) does not match "
                f"the number of dimensions ({x.dim()}) for operand {len(subscripts)} and no ellipsis was given"
            )
        subscripts.append(term)
    if explicit:
        output = output.replace("...", "".join(ell))
    else:
        counts = {}
        for term in subscripts:
            for c in term:
                counts[c] = counts.get(c, 0) + 1
        output = "".join(ell) + "".join(sorted(c for c in counts if counts[c] == 1 and c not in ell))
    order = list(output)
    for term in subscripts:
        for c in term:
            if c not in order:
                order.append(c)
    aligned = []
    for term, x in zip(subscripts, operands):
        # A letter repeated in one operand takes its diagonal.
        while len(set(term)) < len(term):
            for i, c in enumerate(term):
                j = term.find(c, i + 1)
                if j >= 0:
                    x = x.diagonal(0, i, j)
                    term = term[:i] + term[i + 1:j] + term[j + 1:] + c
                    break
        present = sorted(range(len(term)), key=lambda d: order.index(term[d]))
        x = x.permute(*present) if present != list(range(len(term))) else x
        letters = [term[d] for d in present]
        shape = [x.shape[letters.index(c)] if c in letters else 1 for c in order]
        aligned.append(x.reshape(shape))
    product = aligned[0]
    for x in aligned[1:]:
        product = product * x
    contracted = list(range(len(output), len(order)))
    if contracted:
        product = product.sum(tuple(contracted))
    return product
