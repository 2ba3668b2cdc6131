//! Matrix products.

use crate::gradcheck::Case;
use crate::gradcheck::inputs::real;

/// The family's rows.
pub(super) fn cases() -> Vec<Case> {
    vec![
        Case::new("mm", vec![real(&[2, 3]), real(&[3, 4])], |t| t[0].mm(&t[1])),
        Case::new("bmm", vec![real(&[2, 2, 3]), real(&[2, 3, 2])], |t| {
            t[0].bmm(&t[1])
        }),
        Case::new("dot", vec![real(&[4]), real(&[4])], |t| t[0].dot(&t[1])),
        Case::new("mv", vec![real(&[2, 3]), real(&[3])], |t| t[0].mv(&t[1])),
        Case::new(
            "matmul (vector @ matrix)",
            vec![real(&[3]), real(&[3, 2])],
            |t| t[0].matmul(&t[1]),
        ),
        Case::new(
            "matmul (batch @ matrix)",
            vec![real(&[2, 2, 3]), real(&[3, 2])],
            |t| t[0].matmul(&t[1]),
        ),
        Case::new(
            "matmul (broadcast batches)",
            vec![real(&[2, 1, 2, 3]), real(&[2, 3, 2])],
            |t| t[0].matmul(&t[1]),
        ),
    ]
}
