# A tiny CNN on random 8x8 images with Adam: conv, pooling, flatten, linear.
import torch
import torch.nn as nn


class CNN(nn.Module):
    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(1, 4, kernel_size=3, padding=1),
            nn.ReLU(),
            nn.MaxPool2d(2),
            nn.Conv2d(4, 8, kernel_size=3),
            nn.ReLU(),
        )
        self.flatten = nn.Flatten()
        self.classifier = nn.Linear(8 * 2 * 2, 3)

    def forward(self, x):
        return self.classifier(self.flatten(self.features(x)))


torch.manual_seed(0)
model = CNN()
print(model)
x = torch.randn(12, 1, 8, 8)
y = torch.arange(12) % 3
opt = torch.optim.Adam(model.parameters(), lr=0.01)
loss_fn = nn.CrossEntropyLoss()
for step in range(8):
    opt.zero_grad()
    out = model(x)
    loss = loss_fn(out, y)
    loss.backward()
    opt.step()
    print(step, round(loss.item(), 4))
print(out.shape, out.grad_fn)
print(model.features[0].weight.grad.shape)
