# RNN, LSTM and GRU: seeded parameters, outputs and a few training steps.
import torch
import torch.nn as nn

torch.manual_seed(0)
rnn = nn.RNN(3, 4)
lstm = nn.LSTM(3, 4, num_layers=2, batch_first=True)
gru = nn.GRU(3, 2, bidirectional=True)
print(rnn, lstm, gru)
print([name for name, _ in lstm.named_parameters()])
print(rnn.weight_hh_l0)
x = torch.randn(5, 2, 3)
out, h = rnn(x)
print(out.shape, h.shape)
print(h)
out, (h, c) = lstm(x)
print(out.shape, h.shape, c.shape)
print(out[:, -1])
out, h = gru(x)
print(out.shape, h.shape)
print(h)
out, h = gru(x[:, 0])
print(out.shape, h.shape)


class Tagger(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(10, 4)
        self.lstm = nn.LSTM(4, 8, batch_first=True)
        self.head = nn.Linear(8, 2)

    def forward(self, tokens):
        out, _ = self.lstm(self.emb(tokens))
        return self.head(out[:, -1])


model = Tagger()
tokens = torch.randint(0, 10, (6, 5))
labels = torch.tensor([0, 1, 0, 1, 1, 0])
opt = torch.optim.Adam(model.parameters(), lr=0.05)
for step in range(5):
    opt.zero_grad()
    loss = nn.functional.cross_entropy(model(tokens), labels)
    loss.backward()
    opt.step()
    print(step, round(loss.item(), 4))
