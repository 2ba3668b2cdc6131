# Sparse constructors and products as the GCN/GAT examples use them: the
# values PyTorch computes (gradscope keeps these tensors dense), and the
# device context manager.
import torch

i = torch.tensor([[0, 1, 1, 1], [2, 0, 2, 2]])
v = torch.tensor([3.0, 4.0, 5.0, 1.0])
s = torch.sparse_coo_tensor(i, v, (2, 3))
print(s.to_dense())
a = torch.sparse_coo_tensor(i, v, (2, 3), dtype=torch.int64)
print((torch.eye(2, 3) + a).sum(1))
d = torch.diag(torch.tensor([1.0, 2.0])).to_sparse()
print(torch.spmm(d, torch.ones(2, 3)), torch.sparse.mm(d, torch.ones(2, 2)))
print(torch.bmm(torch.arange(8.0).reshape(2, 2, 2).to_sparse(), torch.ones(2, 2, 2)))
with torch.device("cpu"):
    print(torch.zeros(2).device)
